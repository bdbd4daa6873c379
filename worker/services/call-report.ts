// The call report (docs/product/dashboard-and-counts.md#the-call-report "Export"): the caller's calls of the dashboard's range and filters as
// CSV, read by keyset pages in time order so a million-row export holds one page in memory.
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { callOutcome } from "@shared/call-outcomes";
import { CALL_TYPE_DIRECTIONS } from "@shared/constants";
import { nyDateTimeFormatter, nyDayBounds } from "@shared/ny-time";
import type { CallLogCountsQuery } from "@shared/schemas/counts";
import { D1_MAX_BOUND_PARAMETERS, type Database } from "../db/client";
import { agents, callLogs } from "../db/schema";
import type { CsvColumn, PageReader } from "../lib/csv";

/** The call types of the dashboard as call directions; browser calls are in no report (decision 009). */
export function directionsOf(callType: CallLogCountsQuery["callType"]): ("inbound" | "outbound")[] {
  return [...CALL_TYPE_DIRECTIONS[callType]];
}

export type CallReportRow = {
  id: number;
  callId: string;
  startTime: string;
  direction: string;
  agentName: string | null;
  store: string | null;
  phoneNumber: string | null;
  status: string;
  endedReason: string | null;
  duration: number;
  cost: number | null;
  summary: string | null;
};
export type CallReportCursor = { t: string; id: number };

/** Rows per keyset page: 5,000 rows of these columns are about 1 MB, few round trips for a million. */
export const CALL_REPORT_PAGE_SIZE = 5000;

const startTime = nyDateTimeFormatter();

export const CALL_REPORT_COLUMNS: readonly CsvColumn<CallReportRow>[] = [
  { header: "Call ID", value: (r) => r.callId },
  { header: "Start (America/New_York)", value: (r) => startTime(r.startTime) ?? r.startTime },
  { header: "Direction", value: (r) => r.direction },
  { header: "Agent", value: (r) => r.agentName },
  { header: "Store", value: (r) => r.store },
  { header: "Phone number", value: (r) => r.phoneNumber },
  { header: "Status", value: (r) => r.status },
  { header: "Ended reason", value: (r) => r.endedReason },
  { header: "Outcome", value: (r) => callOutcome(r.endedReason) },
  { header: "Duration (s)", value: (r) => r.duration },
  { header: "Cost (USD)", value: (r) => (r.cost === null ? null : r.cost.toFixed(4)) },
  { header: "Summary", value: (r) => r.summary },
];

/**
 * Pages of the caller's calls in the range, oldest first. The (user_id, start_time, id) index
 * serves the range and the keyset; agent and direction are checked on the rows it yields. Agent
 * names come from a map of the caller's agents read once (a call whose agent is not among them is
 * looked up by id), not from a join per row, which would cost more SQL time than the page's own read.
 * The calls are on the account's shard (`dbs.shard`), the agents in the directory (decision 076); the
 * first page and the agents are read at once.
 */
export function callReportPages(dbs: { directory: Database; shard: Database }, userId: string, query: CallLogCountsQuery): PageReader<CallReportRow, CallReportCursor> {
  const db = dbs.shard;
  const { startUtc } = nyDayBounds(query.startDate);
  const { endUtc } = nyDayBounds(query.endDate);
  const filters: SQL[] = [
    eq(callLogs.userId, userId),
    sql`${callLogs.startTime} < ${endUtc}`,
    inArray(callLogs.direction, directionsOf(query.callType)),
  ];
  if (query.agent) filters.push(eq(callLogs.assistantId, query.agent));
  const names = agentNames(dbs.directory, userId);
  return async (cursor, limit) => {
    // drizzle writes the statement; D1 answers it as arrays (`raw`) in this field order, so no object
    // is built per row on a large export (decision 031).
    const { sql: text, params } = db
      .select({
        id: callLogs.id,
        callId: callLogs.callId,
        startTime: callLogs.startTime,
        direction: callLogs.direction,
        agentId: callLogs.agentId,
        store: callLogs.store,
        phoneNumber: callLogs.phoneNumber,
        status: callLogs.status,
        endedReason: callLogs.endedReason,
        duration: callLogs.duration,
        cost: callLogs.cost,
        summary: callLogs.summary,
      })
      .from(callLogs)
      .where(and(...filters, ...(cursor ? after(cursor) : [sql`${callLogs.startTime} >= ${startUtc}`])))
      .orderBy(asc(callLogs.startTime), asc(callLogs.id))
      .limit(limit)
      .toSQL();
    // The account's agent names load with the first page, in the same round trip.
    const [rows] = await Promise.all([db.$client.prepare(text).bind(...params).raw<RawReportRow>(), names([])]);
    const nameOf = await names(rows.map((r) => r[4]));
    return rows.map((r) => ({
      id: r[0],
      callId: r[1],
      startTime: r[2],
      direction: r[3],
      agentName: r[4] === null ? null : (nameOf.get(r[4]) ?? null),
      store: r[5],
      phoneNumber: r[6],
      status: r[7],
      endedReason: r[8],
      duration: r[9],
      cost: r[10],
      summary: r[11],
    }));
  };
}

/**
 * The rows after a page's last one. Its start time is the index range's lower bound: next to the
 * range's own start, SQLite would seek by that one and only filter by the row value, so each page
 * would step over every row of the pages before it (decision 031).
 * The cursor is a row of the range, so it never starts before the range does.
 */
const after = (cursor: CallReportCursor): SQL[] => [
  sql`${callLogs.startTime} >= ${cursor.t}`,
  sql`(${callLogs.startTime}, ${callLogs.id}) > (${cursor.t}, ${cursor.id})`,
];

/** A row of the select above, in its field order. */
type RawReportRow = [
  id: number,
  callId: string,
  startTime: string,
  direction: string,
  agentId: number | null,
  store: string | null,
  phoneNumber: string | null,
  status: string,
  endedReason: string | null,
  duration: number,
  cost: number | null,
  summary: string | null,
];

/**
 * Agent names by id for the report's rows: the account's agents read on first use, any other id a
 * row names (an agent since moved to another account) read by id once, in chunks inside D1's limit
 * of bound parameters. Ids without an agent map to null, as the left join did.
 */
function agentNames(db: Database, userId: string) {
  let known: Map<number, string | null> | null = null;
  return async (ids: (number | null)[]): Promise<Map<number, string | null>> => {
    known ??= new Map((await db.select({ id: agents.id, name: agents.name }).from(agents).where(eq(agents.userId, userId))).map((a) => [a.id, a.name]));
    const missing = [...new Set(ids.filter((id): id is number => id !== null && !known!.has(id)))];
    for (let i = 0; i < missing.length; i += D1_MAX_BOUND_PARAMETERS) {
      const chunk = missing.slice(i, i + D1_MAX_BOUND_PARAMETERS);
      const found = await db.select({ id: agents.id, name: agents.name }).from(agents).where(inArray(agents.id, chunk));
      for (const id of chunk) known.set(id, found.find((a) => a.id === id)?.name ?? null);
    }
    return known;
  };
}

export const callReportCursor = (row: CallReportRow): CallReportCursor => ({ t: row.startTime, id: row.id });

/**
 * The page reader with its first page already asked for: a route calls this before it answers, so
 * the first page's query goes out with the request's first round trip (where the sign-in is
 * confirmed) instead of after the headers. Asking for the first page again gets that same read.
 */
export function firstPageStarted<Row, Cursor>(readPage: PageReader<Row, Cursor>, pageSize: number): PageReader<Row, Cursor> {
  let first: Promise<Row[]> | null = readPage(null, pageSize);
  // Read for a client that may go away before the stream asks for it: its failure is reported there.
  first.catch(() => undefined);
  return (cursor, limit) => {
    if (cursor === null && limit === pageSize && first) {
      const page = first;
      first = null;
      return page;
    }
    return readPage(cursor, limit);
  };
}
