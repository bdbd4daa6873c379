// The live feed's change log (decision 058): call_log_changes, written by triggers on call_logs
// (migrations 0025, 0029; migrations-shard/0001), numbered per account, in each account's shard beside
// its calls (decision 076). A browser's socket catches up from it by cursor; the object reads it after
// every publish from the account's shard; the nightly job prunes every shard's; an account's deletion
// removes its rows.
import { inArray } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { CallLogView } from "@shared/schemas/call-logs";
import type { LiveCallMessage } from "@shared/schemas/live";
import { jsonList, type Database } from "../db/client";

/** Calls a reconnect replays at most; a longer gap is answered with `resync`. */
export const LIVE_REPLAY_LIMIT = 500;
/** Days of changes the change log keeps (the nightly job prunes older ones). */
export const LIVE_CHANGES_KEPT_DAYS = 3;

/**
 * The change log as drizzle sees it, for statements of other batches (an account's deletion). Its
 * table and triggers are migration SQL (0025, 0029), outside the drizzle schema the migrations are
 * generated from.
 */
const callLogChanges = sqliteTable("call_log_changes", {
  seq: integer("seq").primaryKey(),
  userId: text("user_id").notNull(),
  callLogId: integer("call_log_id").notNull(),
  changedAt: text("changed_at").notNull(),
  accountSeq: integer("account_seq").notNull(),
});

/** The statement that deletes these accounts' change rows, their cursors' numbering with them (the ids as one JSON parameter). */
export const deleteAccountChanges = (db: Database, userIds: string[]) => db.delete(callLogChanges).where(inArray(callLogChanges.userId, jsonList(userIds)));

/** A change read with its call as the list shows it: the query selects the view's columns by name. */
type ChangeRow = CallLogView & { seq: number };

const viewOf = ({ seq: _seq, ...view }: ChangeRow): CallLogView => view;

export type Changes = {
  /** The account's newest change (null when the log holds none of its changes). */
  head: number | null;
  /** The oldest and newest change of the account the log keeps. */
  lowest: number | null;
  highest: number | null;
  /** Each call changed after the cursor, once, as it is now, in the order of its latest change. */
  calls: LiveCallMessage[];
  /** More calls changed after the cursor than were read. */
  more: boolean;
};

/**
 * The account's calls changed after `after` (one D1 batch, one snapshot): each call once, as its row
 * is now, at the cursor of its latest change. Cursors are the account's own numbering of its changes
 * (`account_seq`), so they tell nothing of other accounts. `d1` is the account's database, on its primary.
 */
export async function readChanges(d1: D1Database, userId: string, after: number, limit = LIVE_REPLAY_LIMIT): Promise<Changes> {
  const [bounds, rows] = await d1.batch([
    d1.prepare("select min(account_seq) as lowest, max(account_seq) as highest from call_log_changes where user_id = ?1").bind(userId),
    d1
      .prepare(
        `select c.seq, l.id, l.user_id, l.call_id, l.phone_number, l.start_time, l.duration, l.status, l.summary,
                l.ended_reason, l.direction, l.agent_id, l.recording_url
           from (select call_log_id, max(account_seq) as seq from call_log_changes where user_id = ?1 and account_seq > ?2 group by call_log_id) c
           join call_logs l on l.id = c.call_log_id and l.user_id = ?1
          order by c.seq
          limit ?3`,
      )
      .bind(userId, after, limit + 1),
  ]);
  const b = (bounds.results[0] as { lowest: number | null; highest: number | null } | undefined) ?? { lowest: null, highest: null };
  const list = rows.results as ChangeRow[];
  return {
    head: b.highest,
    lowest: b.lowest,
    highest: b.highest,
    calls: list.slice(0, limit).map((r) => ({ type: "call", cursor: String(r.seq), call: viewOf(r) })),
    more: list.length > limit,
  };
}

/**
 * Whether a browser resuming from `after` may have missed changes the log no longer holds (pruned),
 * or holds a cursor the log never reached (a database reset): it must then refetch its lists.
 */
export function mustResync(after: number, changes: Pick<Changes, "lowest" | "highest" | "more">): boolean {
  if (changes.more) return true;
  if (changes.highest === null) return after > 0;
  if (after > changes.highest) return true;
  return changes.lowest !== null && after < changes.lowest - 1;
}

/**
 * Prunes one shard's change log (`db`; the nightly job runs it on every shard at once) to the last
 * LIVE_CHANGES_KEPT_DAYS days; each account's newest row always stays, so its numbering goes on from
 * there and its lowest cursor tells a resuming browser whether its gap was pruned.
 */
export async function pruneLiveChanges(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - LIVE_CHANGES_KEPT_DAYS * 86_400_000).toISOString();
  const d1 = db.$client;
  const result = await d1
    .prepare(
      `delete from call_log_changes
        where changed_at < ?1
          and exists (select 1 from call_log_changes newer where newer.user_id = call_log_changes.user_id and newer.account_seq > call_log_changes.account_seq)`,
    )
    .bind(before)
    .run();
  return result.meta.changes ?? 0;
}
