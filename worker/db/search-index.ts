// The call logs' full-text index (decision 059) in the search database (SEARCH_DB, migrations-search/):
// what one call log becomes in the index, the statements that write and remove it, and how a person's
// words become an FTS5 query. Plain functions and SQL text without imports, so the worker and the
// local rebuild (scripts/search-rebuild.mjs, node:sqlite) build exactly the same rows.

/** The D1 binding of the search database. */
export const SEARCH_BINDING = "SEARCH_DB";

/** What the index reads of a call log. */
export type SearchSource = {
  id: number;
  userId: string | null;
  phoneNumber: string | null;
  startTime: string;
  summary: string | null;
  transcript: string | null;
  updatedAt: string;
};

/**
 * Marks around a matching word in a snippet. Control characters: a call's text never carries them
 * (they are removed from what is indexed), so every mark in a snippet is one the index put there.
 */
export const MARK_OPEN = "\u0002";
export const MARK_CLOSE = "\u0003";

/**
 * An account's token in the `owner` column: its id's UTF-8 bytes as 3 digits each (one token, never
 * another account's; digits only, so the stemmer leaves it as it is).
 */
export function ownerToken(userId: string): string {
  let digits = "";
  for (const b of new TextEncoder().encode(userId)) digits += String(b).padStart(3, "0");
  return digits;
}

/** The digits of a phone number as the tokens a search by number finds: all of them, the last 10, 7 and 4. */
export function phoneTokens(phone: string | null): string {
  const digits = (phone ?? "").replace(/\D/g, "");
  if (!digits) return "";
  const tokens = new Set([digits]);
  for (const n of [10, 7, 4]) if (digits.length > n) tokens.add(digits.slice(-n));
  return [...tokens].join(" ");
}

/** A stored transcript (plain text, or JSON turns) as the text the index holds: one line per turn. */
export function transcriptText(stored: string | null): string {
  if (!stored) return "";
  if (stored.startsWith("[")) {
    try {
      const turns = JSON.parse(stored) as unknown;
      if (Array.isArray(turns)) {
        return turns
          .map((t: { role?: unknown; content?: unknown; text?: unknown; message?: unknown }) => {
            const said = [t?.content, t?.text, t?.message].find((v) => typeof v === "string") ?? "";
            return `${typeof t?.role === "string" ? t.role : ""}: ${said as string}`;
          })
          .join("\n");
      }
    } catch {
      // plain text that happens to start with '['
    }
  }
  return stored;
}

const clean = (text: string | null) => (text ?? "").replaceAll(MARK_OPEN, " ").replaceAll(MARK_CLOSE, " ");

/** The values one call log's index row is written with (bound in the order of UPSERT_STATEMENTS). */
export function searchRow(s: SearchSource) {
  return {
    id: s.id,
    updatedAt: s.updatedAt,
    startTime: s.startTime,
    userId: s.userId,
    owner: s.userId === null ? "" : ownerToken(s.userId),
    phone: phoneTokens(s.phoneNumber),
    summary: clean(s.summary),
    transcript: clean(transcriptText(s.transcript)),
  };
}

/**
 * The rowid of a call's index row: its start second shifted left 31 bits, or'ed with its id, so rowid
 * order is (start second, id) order and the newest call has the largest rowid. Computed in SQL: the
 * value is beyond JavaScript's exact integers, so it travels as text (the search cursor) or not at all.
 */
export const ROWID_SQL = (start: string, id: string) => `((coalesce(unixepoch(${start}), 0) << 31) | ${id})`;

/**
 * Writes one owned call log's index row, in one batch, unless the index already holds a newer version
 * of the call (updated_at later than this one): the old row goes, the new one is inserted, the call's
 * doc entry follows (upsertStatements binds them). Parameters: ?1 id, ?2 updated_at, ?3 start_time, ?4 user_id, ?5 owner, ?6 phone,
 * ?7 summary, ?8 transcript.
 */
export const UPSERT_STATEMENTS = [
  `DELETE FROM call_search WHERE rowid IN (SELECT doc_rowid FROM call_search_docs WHERE call_log_id = ?1 AND updated_at <= ?2)`,
  `INSERT INTO call_search (rowid, owner, phone, summary, transcript)
   SELECT ${ROWID_SQL("?3", "?1")}, ?5, ?6, ?7, ?8
   WHERE NOT EXISTS (SELECT 1 FROM call_search_docs WHERE call_log_id = ?1 AND updated_at > ?2)`,
  `INSERT INTO call_search_docs (call_log_id, doc_rowid, user_id, updated_at) VALUES (?1, ${ROWID_SQL("?3", "?1")}, ?4, ?2)
   ON CONFLICT (call_log_id) DO UPDATE SET doc_rowid = excluded.doc_rowid, user_id = excluded.user_id, updated_at = excluded.updated_at
   WHERE excluded.updated_at >= call_search_docs.updated_at`,
] as const;

/** Each statement's highest parameter number: SQLite takes exactly that many values. */
const UPSERT_ARITY = [2, 8, 4] as const;

/** The statements, each with its values, that write one call log's index row. */
export function upsertStatements(r: ReturnType<typeof searchRow>): [string, unknown[]][] {
  const all = [r.id, r.updatedAt, r.startTime, r.userId, r.owner, r.phone, r.summary, r.transcript];
  return UPSERT_STATEMENTS.map((sql, i) => [sql, all.slice(0, UPSERT_ARITY[i])]);
}

/** Removes a call log's index row (a call without an owner is in no one's search). ?1 id. */
export const REMOVE_CALL_STATEMENTS = [
  `DELETE FROM call_search WHERE rowid IN (SELECT doc_rowid FROM call_search_docs WHERE call_log_id = ?1)`,
  `DELETE FROM call_search_docs WHERE call_log_id = ?1`,
] as const;

/** Removes every index row of an account. ?1 user_id. */
export const REMOVE_ACCOUNT_STATEMENTS = [
  `DELETE FROM call_search WHERE rowid IN (SELECT doc_rowid FROM call_search_docs WHERE user_id = ?1)`,
  `DELETE FROM call_search_docs WHERE user_id = ?1`,
] as const;

/** Empties the index and its high-water mark, for a rebuild from the call logs. */
export const CLEAR_STATEMENTS = [
  `DELETE FROM call_search`,
  `DELETE FROM call_search_docs`,
  `UPDATE call_search_state SET updated_at = '', call_log_id = 0 WHERE id = 1`,
] as const;

/** The call-log columns the index reads, for a SELECT over call_logs. */
export const SOURCE_COLUMNS = `id, user_id AS userId, phone_number AS phoneNumber, start_time AS startTime, summary, transcript, updated_at AS updatedAt`;

// ---- a person's words as an FTS5 query -------------------------------------------------------------

/** The words of a query: runs of letters and digits (what the index's tokenizer keeps), lower-cased. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * A search text as an FTS5 query of the owner's rows, or null when it has no word to look for. No
 * character of the text reaches FTS5 syntax: every word is a quoted string of letters and digits, so
 * quotes, operators, parentheses, NEAR, column names and stars are plain words or dropped. Every word
 * must appear in the summary or the transcript, matched by its stem (the index's porter tokenizer),
 * as a whole term: a prefix would make FTS5 merge every word it starts before the first match.
 * A text that is a phone number (digits and the signs a number is written with, at least 3 digits)
 * finds calls whose number starts with those digits (with or without country code, or its last 7 or
 * 4 digits), or whose texts say them.
 */
export function searchMatch(userId: string, text: string): string | null {
  const owner = `owner : "${ownerToken(userId)}"`;
  if (/^[\d\s()+.\-/]+$/.test(text)) {
    const digits = text.replace(/\D/g, "");
    if (digits.length >= 3) return `${owner} AND (phone : "${digits}"* OR {summary transcript} : "${digits}")`;
  }
  const words = text.normalize("NFC").match(WORD) ?? [];
  if (words.length === 0) return null;
  const terms = words.slice(0, 16).map((w) => `"${w.toLowerCase()}"`);
  return `${owner} AND {summary transcript} : (${terms.join(" AND ")})`;
}

/** A snippet from the index (with MARK_OPEN/MARK_CLOSE) as plain text and the [start, end) ranges of its marked words. */
export function parseSnippet(marked: string): { text: string; highlights: [number, number][] } {
  let text = "";
  const highlights: [number, number][] = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === MARK_OPEN) open = text.length;
    else if (ch === MARK_CLOSE) {
      if (open >= 0 && text.length > open) highlights.push([open, text.length]);
      open = -1;
    } else text += ch;
  }
  return { text, highlights };
}
