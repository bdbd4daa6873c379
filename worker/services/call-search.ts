// Transcript and summary search (decision 059): the call logs' full-text index, in each shard beside
// the calls it indexes (decision 076), kept in step after every call-log write, healed from the call
// logs' updated_at by the 10-minute cron (shard by shard), rebuilt from scratch on demand, and read by
// GET /api/call-logs/search from the signed-in account's shard.
import { and, eq, inArray } from "drizzle-orm";
import type { CallLogSearchResult } from "@shared/schemas/call-logs";
import { d1Of, jsonList, type Database } from "../db/client";
import { callLogs, deletedAccounts } from "../db/schema";
import {
  CLEAR_STATEMENTS,
  MARK_OPEN,
  REMOVE_ACCOUNT_STATEMENTS,
  SOURCE_COLUMNS,
  WRITE_STATEMENTS,
  parseSnippet,
  searchMatch,
  searchRow,
  writeChunks,
  type SearchSource,
} from "../db/search-index";
import { toCallLogView, type CallLogListRow } from "./call-logs";
import { withStoredTranscripts, type CallTextBucket } from "./call-text";

/**
 * Writes the index rows of these call logs (read as they are now): WRITE_STATEMENTS over JSON chunks
 * of the rows, one batch per chunk, so a batch sends four statements however many calls it carries
 * (D1 counts every statement against a Worker invocation's query limit). `extra` statements go in the
 * last batch (the healing pass moves its mark with the rows it wrote).
 */
export async function writeSearchRows(search: D1Database, text: CallTextBucket, sources: SearchSource[], extra: D1PreparedStatement[] = []) {
  // The transcripts are R2's (decision 077): read for the owned calls whose row does not hold one.
  const chunks = writeChunks((await withStoredTranscripts(text, sources)).map(searchRow));
  if (chunks.length === 0 && extra.length > 0) await search.batch(extra);
  for (const [n, json] of chunks.entries()) {
    await search.batch([...WRITE_STATEMENTS.map((q) => search.prepare(q).bind(json)), ...(n === chunks.length - 1 ? extra : [])]);
  }
}

const sourceSelect = {
  id: callLogs.id,
  callId: callLogs.callId,
  userId: callLogs.userId,
  phoneNumber: callLogs.phoneNumber,
  startTime: callLogs.startTime,
  summary: callLogs.summary,
  transcript: callLogs.transcript,
  updatedAt: callLogs.updatedAt,
};

/**
 * Brings the shard's index in step with these calls (by the voice platform's call id) after their
 * write has committed: one read of the rows, one batch to the same shard. Called once per write path.
 */
export async function indexCalls(shard: Database, text: CallTextBucket, callIds: string[]) {
  if (callIds.length === 0) return 0;
  // The ids as one JSON parameter: any number of calls in one statement.
  const rows = await shard.select(sourceSelect).from(callLogs).where(inArray(callLogs.callId, jsonList(callIds)));
  await writeSearchRows(d1Of(shard), text, rows);
  return rows.length;
}

/** The same after an account's agent adopted the earlier calls of its assistant (orphan adoption). */
export async function indexAssistantCalls(shard: Database, text: CallTextBucket, userId: string, assistantId: string) {
  const rows = await shard
    .select(sourceSelect)
    .from(callLogs)
    .where(and(eq(callLogs.userId, userId), eq(callLogs.assistantId, assistantId)));
  await writeSearchRows(d1Of(shard), text, rows);
  return rows.length;
}

/** Removes the index rows of deleted accounts. */
export async function removeAccountsFromSearch(search: D1Database, userIds: string[]) {
  if (userIds.length === 0) return;
  await search.batch(userIds.flatMap((id) => REMOVE_ACCOUNT_STATEMENTS.map((q) => search.prepare(q).bind(id))));
}

/** Call logs the healing pass reads per round. */
const HEAL_BATCH = 500;

/**
 * Transcripts the healing pass may read from R2 in one cron run, over all shards: a Worker invocation
 * makes at most 1,000 operations on Cloudflare's services (D1 and R2 alike), and the run's D1
 * queries need the rest. A call indexed by its own write is never read again.
 */
export const HEAL_TEXT_READS_PER_RUN = 400;

/** Each shard's share of HEAL_TEXT_READS_PER_RUN when a run heals `shards` shards at once. */
export const healTextReadsPerShard = (shards: number) => Math.max(1, Math.floor(HEAL_TEXT_READS_PER_RUN / Math.max(1, shards)));

/**
 * The healing pass of one shard: indexes every call log of the shard changed since its index's
 * high-water mark (updated_at, id) whose index row is missing or older than the call, in (updated_at,
 * id) order, moving the mark in the batch of the rows it wrote; and removes the rows of accounts
 * deleted since (the directory lists them). A write whose index step was lost is indexed here within
 * one cron period; a call its own write indexed is skipped, so its transcript is not read again.
 * Indexes at most `maxRows` calls (each one transcript read from R2); the next run goes on from the mark.
 */
export async function healSearchIndex(directory: Database, db: Database, text: CallTextBucket, { maxRows = HEAL_TEXT_READS_PER_RUN } = {}) {
  const search = d1Of(db);
  const deleted = await directory.select({ userId: deletedAccounts.userId }).from(deletedAccounts);
  await removeAccountsFromSearch(search, deleted.map((d) => d.userId));
  let indexed = 0;
  while (indexed < maxRows) {
    const batch = Math.min(HEAL_BATCH, maxRows - indexed);
    const mark = await search.prepare(`SELECT updated_at AS u, call_log_id AS id FROM call_search_state WHERE id = 1`).first<{ u: string; id: number }>();
    const after = mark ?? { u: "", id: 0 };
    const rows = await search
      .prepare(
        `SELECT ${SOURCE_COLUMNS} FROM call_logs WHERE (updated_at, id) > (?1, ?2)
           AND NOT EXISTS (SELECT 1 FROM call_search_docs d WHERE d.call_log_id = call_logs.id AND d.updated_at >= call_logs.updated_at)
         ORDER BY updated_at, id LIMIT ?3`,
      )
      .bind(after.u, after.id, batch)
      .all<SearchSource>();
    const sources = rows.results;
    if (sources.length === 0) break;
    const last = sources[sources.length - 1];
    const moveMark = search.prepare(`UPDATE call_search_state SET updated_at = ?1, call_log_id = ?2 WHERE id = 1`).bind(last.updatedAt, last.id);
    await writeSearchRows(search, text, sources, [moveMark]);
    indexed += sources.length;
    if (sources.length < batch) break;
  }
  return { indexed, deletedAccounts: deleted.length };
}

/**
 * Rebuilds a shard's index from its call logs in one go: empties it and its mark, then heals until
 * every call log is in. For a shard that fits one invocation's 1,000 queries (about 70,000 calls); a
 * larger one is emptied the same way and left to the cron's healing runs (decision 059).
 */
export async function rebuildSearchIndex(directory: Database, db: Database, text: CallTextBucket) {
  const search = d1Of(db);
  await search.batch(CLEAR_STATEMENTS.map((q) => search.prepare(q)));
  return healSearchIndex(directory, db, text, { maxRows: Number.POSITIVE_INFINITY });
}

// ---- GET /api/call-logs/search ---------------------------------------------------------------------

/** A search cursor: the index rowid of the last result shown, as decimal text (it exceeds JS integers). */
export const isSearchCursor = (cursor: string) => /^[1-9]\d{0,18}$/.test(cursor);

/** Words of context either side of a snippet's matches. */
const SNIPPET_TOKENS = 16;

type Hit = CallLogListRow & { k: string; s: string | null; t: string | null };

/** The snippet shown for a hit: the summary's when its words matched, else the transcript's, else the summary's start. */
function snippetOf(hit: Hit) {
  const marked = [hit.s, hit.t].find((x) => x?.includes(MARK_OPEN)) ?? hit.s ?? hit.t ?? "";
  return parseSnippet(marked);
}

/**
 * One page of an account's calls whose transcript or summary holds every word of `text` (or whose
 * number holds its digits), newest first, after `cursor`, from the account's shard. One round trip:
 * the index and the calls are in the same database, so the matches (the account's own index rows, in
 * rowid order, stopping after limit + 1) are joined to the calls by primary key there, with the
 * call-log list's scope (user_id), so a stale index row of a call that moved or went never shows.
 */
export async function searchCallLogs(db: Database, userId: string, text: string, limit: number, cursor: string | null) {
  const match = searchMatch(userId, text);
  if (!match) return { results: [] as CallLogSearchResult[], nextCursor: null };
  const hl = (col: number) => `snippet(call_search, ${col}, char(2), char(3), '…', ${SNIPPET_TOKENS})`;
  // `+c.user_id` keeps the scope in the query without letting SQLite pick the (user_id, start_time)
  // index, which would walk every call of the account to find these few.
  const query = `SELECT c.id, c.user_id AS userId, c.call_id AS callId, c.phone_number AS phoneNumber, c.start_time AS startTime,
      c.duration, c.status, c.summary, c.ended_reason AS endedReason, c.direction, c.agent_id AS agentId, c.recording_url AS recordingUrl,
      CAST(call_search.rowid AS TEXT) AS k, ${hl(2)} AS s, ${hl(3)} AS t
    FROM call_search JOIN call_logs c ON c.id = (call_search.rowid & 2147483647) AND +c.user_id = ?4
    WHERE call_search MATCH ?1 ${cursor ? "AND call_search.rowid < CAST(?3 AS INTEGER)" : ""} ORDER BY call_search.rowid DESC LIMIT ?2`;
  const hits = (await d1Of(db).prepare(query).bind(match, limit + 1, cursor ?? null, userId).all<Hit>()).results;
  const page = hits.slice(0, limit);
  const nextCursor = hits.length > limit ? page[page.length - 1].k : null;
  return { results: page.map((hit): CallLogSearchResult => ({ log: toCallLogView(hit), snippet: snippetOf(hit) })), nextCursor };
}
