// The call logs' full-text index (decision 059), in each shard beside its calls (migrations-shard/):
// what one call log becomes in the index, the statements that write and remove it, and how a person's
// words become an FTS5 query. Plain functions and SQL text without imports, so the worker and the
// local rebuild (scripts/search-rebuild.mjs, node:sqlite) build exactly the same rows.

/** What the index reads of a call log. */
export type SearchSource = {
  id: number;
  /** The voice platform's id: the key of the call's text in R2 (decision 077). */
  callId: string;
  userId: string | null;
  phoneNumber: string | null;
  startTime: string;
  summary: string | null;
  /** The stored transcript: an older row's column, else the call's R2 object's (worker/services/call-text.ts storedTranscript). */
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

/** One call log as the write statements read it from their JSON parameter (short keys: the batch's size). */
export type SearchRow = { id: number; u: string; s: string; uid: string | null; o: string | null; p: string; m: string; t: string };

/** What the index holds of one call log (an ownerless call: only its id and version, to remove it). */
export function searchRow(s: SearchSource): SearchRow {
  return {
    id: s.id,
    u: s.updatedAt,
    s: s.startTime,
    uid: s.userId,
    o: s.userId === null ? null : ownerToken(s.userId),
    p: phoneTokens(s.phoneNumber),
    m: clean(s.summary),
    t: clean(transcriptText(s.transcript)),
  };
}

/**
 * The rowid of a call's index row: its start second shifted left 31 bits, or'ed with its id, so rowid
 * order is (start second, id) order and the newest call has the largest rowid. Computed in SQL: the
 * value is beyond JavaScript's exact integers, so it travels as text (the search cursor) or not at all.
 */
const ROWID = `((coalesce(unixepoch(j.value ->> 's'), 0) << 31) | (j.value ->> 'id'))`;

/** The index's doc entry of a JSON row, when it holds a newer version of the call than this row. */
const NEWER = `EXISTS (SELECT 1 FROM call_search_docs d WHERE d.call_log_id = j.value ->> 'id' AND d.updated_at > j.value ->> 'u')`;

/**
 * Brings many call logs' index rows in step in a few statements, whatever their number: ?1 is a JSON
 * array of SearchRow (writeStatements chunks it). A row of an owned call replaces the call's index
 * row; an ownerless call's row is removed (it is in no one's search). Neither happens when the index
 * already holds a newer version of the call (a later updated_at), so two writes of one call that land
 * out of order leave the newer. The old row goes before the new one is written: a call whose start
 * moved changes rowid.
 */
export const WRITE_STATEMENTS = [
  `DELETE FROM call_search WHERE rowid IN (
     SELECT d.doc_rowid FROM json_each(?1) j JOIN call_search_docs d ON d.call_log_id = j.value ->> 'id' WHERE d.updated_at <= j.value ->> 'u')`,
  `DELETE FROM call_search_docs WHERE call_log_id IN (
     SELECT j.value ->> 'id' FROM json_each(?1) j WHERE j.value ->> 'uid' IS NULL AND NOT ${NEWER})`,
  `INSERT INTO call_search (rowid, owner, phone, summary, transcript)
   SELECT ${ROWID}, j.value ->> 'o', j.value ->> 'p', j.value ->> 'm', j.value ->> 't' FROM json_each(?1) j
   WHERE j.value ->> 'uid' IS NOT NULL AND NOT ${NEWER}`,
  `INSERT INTO call_search_docs (call_log_id, doc_rowid, user_id, updated_at)
   SELECT j.value ->> 'id', ${ROWID}, j.value ->> 'uid', j.value ->> 'u' FROM json_each(?1) j WHERE j.value ->> 'uid' IS NOT NULL
   ON CONFLICT (call_log_id) DO UPDATE SET doc_rowid = excluded.doc_rowid, user_id = excluded.user_id, updated_at = excluded.updated_at
   WHERE excluded.updated_at >= call_search_docs.updated_at`,
] as const;

/** Characters of JSON per write: D1 takes a bound value of up to 2 MB; a quarter of that leaves room. */
const WRITE_CHUNK_CHARS = 500_000;

/** The call logs' rows as JSON parameters for WRITE_STATEMENTS, each under WRITE_CHUNK_CHARS (one row may exceed it alone). */
export function writeChunks(rows: SearchRow[]): string[] {
  const chunks: string[] = [];
  let part: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (part.length > 0 && size + json.length > WRITE_CHUNK_CHARS) {
      chunks.push(`[${part.join(",")}]`);
      part = [];
      size = 0;
    }
    part.push(json);
    size += json.length + 1;
  }
  if (part.length > 0) chunks.push(`[${part.join(",")}]`);
  return chunks;
}

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

/**
 * The call-log columns the index reads, for a SELECT over call_logs: `transcript` is an older row's
 * column only; the reader fills a null one from R2 by call id (decision 077).
 */
export const SOURCE_COLUMNS = `id, call_id AS callId, user_id AS userId, phone_number AS phoneNumber, start_time AS startTime, summary, transcript, updated_at AS updatedAt`;

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
