// Moving an account from one shard to another (decision 080), in steps that the minute cron and
// `npm run shards -- move` drive. Each step reads where the move stands (shard_moves: phase and
// cursor) from the directory, does a bounded amount of work, and writes the new cursor after the rows
// it copied have committed; every write is an upsert by the row's key, so a step that dies anywhere
// is simply done again by the next one and no row is lost or doubled.
//
//   copying      every shard table's rows of the account, in rowid pages, to the new shard
//   catching_up  the rows changed since the copy began (updated_at and the other change times), in
//                passes until one finds little; then ONE directory write points profiles.shard at the
//                new shard
//   switched     at once, a pass for what reached the old shard while the last pass ran
//   final        no earlier than GRACE_MS after the switch (a request that read the old shard's name
//                may still write there): a last pass from the old shard
//   deleting     the account's rows on the old shard, in batches
//   done
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { nyDayOf } from "@shared/ny-time";
import { createDb, type Database } from "../../db/client";
import {
  alertHistory,
  alertNotifications,
  alertRuleState,
  alertRules,
  callLogDaily,
  callLogHourly,
  callLogUserDaily,
  callLogUserHourly,
  callLogs,
  profiles,
  shardMoves,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema";
import { REMOVE_ACCOUNT_STATEMENTS, SOURCE_COLUMNS, type SearchSource } from "../../db/search-index";
import { SHARD_BINDING } from "../../db/shards";
import { auditStatement, type AdminActor } from "../admin/audit-log";
import { writeSearchRows } from "../call-search";
import type { CallTextBucket } from "../call-text";
import { callHoursChanged, markDaysDirty } from "../rollup-dirty";

export type MovePhase = "copying" | "catching_up" | "switched" | "final" | "deleting" | "done";
export type ShardMove = typeof shardMoves.$inferSelect;

/** Where a phase stands: the table (index into MOVED_TABLES) and the last rowid done in it; a pass's start. */
type Cursor = { table: number; after: After; passStart?: string; passRows?: number };
/** The last row done in a table: its rowid, or its keyset values (0: none yet). */
type After = number | [string, number];

/** A request that read the old shard's name just before the switch may still write there this long after it. */
export const GRACE_MS = 60_000;
/**
 * The catch-up reads rows changed since the last pass began minus this margin: a write stamps its
 * time before it commits, so a row stamped just before a pass began may commit just after it read.
 */
const MARGIN_MS = 60_000;
/** Rows read from the old shard per page. Their JSON goes in chunks of at most CHUNK_CHARS, one bound parameter each. */
export const PAGE_ROWS = 250;
/** D1 takes a bound value of up to 2 MB; a quarter of that leaves room (as the search index's writes do). */
const CHUNK_CHARS = 500_000;
/** Rows deleted per statement on the old shard. */
const DELETE_ROWS = 1_000;
/**
 * Queries one step may send (D1 allows 1,000 per Worker invocation, and the cron runs other jobs): a
 * call-log page costs about 8 (read, upsert, read back, 4 index statements, cursor), so a step moves
 * about 15,000 calls; the step stops at the first page boundary past this budget.
 */
export const STEP_QUERY_BUDGET = 500;
/** A catch-up pass that moved fewer rows than this is the last before the switch. */
const SETTLED_ROWS = PAGE_ROWS;
/** How long a step holds its move; a step that dies keeps others off it at most this long. */
const LEASE_MS = 5 * 60_000;

/**
 * Ids stay as they are across a move: alert rules, history, notifications and webhook attempts are
 * inserted with random 52-bit ids (SHARD_ROW_ID in worker/db/shards.ts), so rows copied with their ids
 * never meet the new shard's own. Call logs are copied by their call_id and get the new shard's ids:
 * the search index packs a call's id into 31 bits of its rowid (decision 080).
 */
type MovedTable = {
  table: SQLiteTable;
  /** The account's rows: SQL over the table's columns, ?1 the account id. */
  owner: string;
  /** The conflict target: the row's natural key. */
  key: string[];
  /** Columns not copied (the new shard numbers them). */
  omit?: string[];
  /** The row's version: the newer wins a conflict. Without one, the old shard's row wins before the switch, the new shard's after it. */
  version?: string;
  /** When a row last changed (catch-up reads rows where any is at or after the mark); none: copied once, in the copy phase. */
  changed?: string[];
  /**
   * Pages in this order instead of rowid order: columns an index holds right after the owner's, so a
   * page reads only its own rows (call logs: the account's index on user_id, start_time, id).
   */
  keyset?: [string, string];
};

const byUser = "user_id = ?1";
/** Every shard table holding an account's rows, parents before children (alert_rule_state references alert_rules). */
export const MOVED_TABLES: MovedTable[] = [
  { table: callLogs, owner: byUser, key: ["call_id"], omit: ["id"], version: "updated_at", changed: ["updated_at"], keyset: ["start_time", "id"] },
  // Roll-ups are copied as they are; days whose calls change during the move are marked dirty on the
  // new shard (catch-up), and the roll-up job rebuilds them there.
  { table: callLogDaily, owner: byUser, key: ["user_id", "day", "assistant_id", "direction"] },
  { table: callLogUserDaily, owner: byUser, key: ["user_id", "day", "direction"] },
  { table: callLogHourly, owner: byUser, key: ["user_id", "hour", "assistant_id", "direction"] },
  { table: callLogUserHourly, owner: byUser, key: ["user_id", "hour", "direction"] },
  { table: webhookEndpoints, owner: byUser, key: ["id"], version: "updated_at", changed: ["updated_at"] },
  { table: webhookDeliveries, owner: byUser, key: ["id"], changed: ["created_at", "last_attempt_at", "next_attempt_at"] },
  {
    table: webhookAttempts,
    owner: "endpoint_id IN (SELECT id FROM webhook_endpoints WHERE user_id = ?1)",
    key: ["id"],
    changed: ["attempted_at"],
  },
  { table: alertRules, owner: byUser, key: ["id"], version: "updated_at", changed: ["updated_at"] },
  { table: alertRuleState, owner: byUser, key: ["rule_id"], changed: ["since", "last_fired_at", "evaluated_at"] },
  { table: alertHistory, owner: byUser, key: ["id"], changed: ["fired_at", "resolved_at", "acknowledged_at"] },
  { table: alertNotifications, owner: byUser, key: ["id"], changed: ["created_at", "read_at"] },
];

const tableName = (t: MovedTable) => getTableConfig(t.table).name;
const columnsOf = (t: MovedTable) => getTableConfig(t.table).columns.map((c) => c.name).filter((c) => !t.omit?.includes(c));

/**
 * The upsert of a page's rows (?1: a JSON array of the old shard's rows). `after`: the switch has
 * happened, so the new shard's row is the live one: a row with a version still takes the newer, a row
 * without one is only added when missing.
 */
function upsertSql(t: MovedTable, after: boolean): string {
  const name = tableName(t);
  const cols = columnsOf(t);
  const select = cols.map((c) => `j.value ->> '${c}'`).join(", ");
  const updates = cols.filter((c) => !t.key.includes(c)).map((c) => `${c} = excluded.${c}`);
  const guards = [
    // Never another account's row (an id of a range not yet set, a call id adopted elsewhere).
    cols.includes("user_id") ? `${name}.user_id IS excluded.user_id` : `${name}.endpoint_id = excluded.endpoint_id`,
    ...(t.version ? [`excluded.${t.version} >= ${name}.${t.version}`] : []),
  ];
  const onConflict = (after && !t.version) || updates.length === 0 ? "DO NOTHING" : `DO UPDATE SET ${updates.join(", ")} WHERE ${guards.join(" AND ")}`;
  return `INSERT INTO ${name} (${cols.join(", ")}) SELECT ${select} FROM json_each(?1) j WHERE true ON CONFLICT (${t.key.join(", ")}) ${onConflict}`;
}

/** Rows as JSON arrays of at most CHUNK_CHARS each (a single larger row goes alone). */
function chunks(rows: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (part.length > 0 && size + json.length > CHUNK_CHARS) {
      out.push(`[${part.join(",")}]`);
      part = [];
      size = 0;
    }
    part.push(json);
    size += json.length + 1;
  }
  if (part.length > 0) out.push(`[${part.join(",")}]`);
  return out;
}

/**
 * What a step works with: the directory, each shard's D1 on its primary, the shards bound, and the
 * call text in R2 (decision 077), whence the moved calls' search rows read their transcripts (an
 * account's objects are keyed by account, not shard: a move leaves them where they are).
 */
export type MoveDeps = { directory: Database; shard: (name: string) => D1Database; bound: readonly string[]; text: CallTextBucket };

/** Test hook: called at each point a step may die; a throw there is a crash at that point. */
export type CrashHook = (point: string) => void;

export type StepOptions = { now?: () => Date; graceMs?: number; budget?: number; crash?: CrashHook; /** Told the queries the step sent. */ spent?: (queries: number) => void };

export class MoveRefused extends Error {
  constructor(
    message: string,
    readonly field: "account" | "shard",
    readonly status: 404 | 400 | 409,
  ) {
    super(message);
  }
}

/** Starts a move; refuses an unknown account or shard, the account's own shard, and a second move of an account. */
export async function startMove(
  deps: MoveDeps,
  input: { account: string; shard: string; startedBy: string; now?: Date; /** An admin's start is audited in the same batch. */ actor?: AdminActor },
): Promise<ShardMove> {
  const { directory } = deps;
  if (!SHARD_BINDING.test(input.shard) || !deps.bound.includes(input.shard)) throw new MoveRefused(`${input.shard} is not a shard of this Worker`, "shard", 400);
  const [[profile], [running]] = await directory.batch([
    directory.select({ shard: profiles.shard, email: profiles.email }).from(profiles).where(eq(profiles.id, input.account)),
    directory.select({ id: shardMoves.id }).from(shardMoves).where(and(eq(shardMoves.userId, input.account), ne(shardMoves.phase, "done"))),
  ]);
  if (!profile) throw new MoveRefused("No account with this id", "account", 404);
  if (running) throw new MoveRefused("This account is already being moved", "account", 409);
  if (!profile.shard) throw new MoveRefused("This account is not placed on a shard yet", "account", 409);
  if (profile.shard === input.shard) throw new MoveRefused(`The account is already on ${input.shard}`, "shard", 400);
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - MARGIN_MS).toISOString();
  try {
    const insert = directory
      .insert(shardMoves)
      .values({ userId: input.account, fromShard: profile.shard, toShard: input.shard, since, startedBy: input.startedBy, startedAt: now.toISOString(), updatedAt: now.toISOString() })
      .returning();
    if (!input.actor) return (await insert)[0];
    const audit = auditStatement(directory, input.actor, "move_account_shard", { id: input.account, email: profile.email }, { from: profile.shard, to: input.shard });
    const [[row]] = await directory.batch([insert, audit]);
    return row;
  } catch (e) {
    // Two starts at once: the unique index of unfinished moves lets one through.
    if (String((e as Error)?.message ?? e).includes("UNIQUE")) throw new MoveRefused("This account is already being moved", "account", 409);
    throw e;
  }
}

/** Moves, newest first. */
export const listMoves = (directory: Database, limit = 100) => directory.select().from(shardMoves).orderBy(desc(shardMoves.id)).limit(limit);

/** The unfinished moves, oldest first. */
const runningMoves = (directory: Database) => directory.select().from(shardMoves).where(ne(shardMoves.phase, "done")).orderBy(shardMoves.id);

/**
 * The minute cron's job: a step of every unfinished move, one after another, sharing one query budget
 * (the invocation's 1,000 queries are shared by every move and the cron's other jobs); a move the
 * budget does not reach this minute goes on in the next.
 */
export async function advanceMoves(deps: MoveDeps, opts: StepOptions = {}) {
  const moves = await runningMoves(deps.directory);
  const results: { id: number; phase: string; error?: string }[] = [];
  let left = opts.budget ?? STEP_QUERY_BUDGET;
  for (const m of moves) {
    // A step's smallest useful work (its lease, a page, its cursor) needs a few queries.
    if (left < 20) break;
    try {
      const after = await stepMove(deps, m.id, { ...opts, budget: left, spent: (n) => (left -= n) });
      results.push({ id: m.id, phase: after?.phase ?? m.phase });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      await deps.directory.update(shardMoves).set({ error }).where(eq(shardMoves.id, m.id));
      results.push({ id: m.id, phase: m.phase, error });
    }
  }
  return { moves: results };
}

/**
 * One step of a move: as much work as the query budget allows, from where the directory says the
 * move stands. Returns the move as it stands after, or null when another step holds it (its lease).
 */
export async function stepMove(deps: MoveDeps, id: number, opts: StepOptions = {}): Promise<ShardMove | null> {
  const now = opts.now ?? (() => new Date());
  const { directory } = deps;
  const leaseUntil = new Date(now().getTime() + LEASE_MS).toISOString();
  const [move] = await directory
    .update(shardMoves)
    .set({ leaseUntil })
    .where(and(eq(shardMoves.id, id), ne(shardMoves.phase, "done"), sql`(${shardMoves.leaseUntil} IS NULL OR ${shardMoves.leaseUntil} < ${now().toISOString()})`))
    .returning();
  if (!move) return null;
  const step = new Step(deps, move, { ...opts, now });
  try {
    await step.run();
  } finally {
    await directory.update(shardMoves).set({ leaseUntil: null }).where(eq(shardMoves.id, id));
    // The lease, its release and the read below.
    opts.spent?.(step.queries + 3);
  }
  return (await directory.select().from(shardMoves).where(eq(shardMoves.id, id)).get()) ?? null;
}

/** Steps a move until it is done; `pause` runs between steps (the command waits out the grace period with it). */
export async function runMoveToEnd(deps: MoveDeps, id: number, opts: StepOptions & { pause?: (move: ShardMove) => Promise<void> } = {}) {
  for (;;) {
    const move = await stepMove(deps, id, opts);
    if (!move) throw new Error(`Move ${id} is held by another step`);
    if (move.phase === "done") return move;
    if (opts.pause) await opts.pause(move);
  }
}

class Step {
  queries = 0;
  private readonly from: D1Database;
  private readonly to: D1Database;
  private readonly budget: number;
  private readonly crash: CrashHook;

  constructor(
    private readonly deps: MoveDeps,
    private move: ShardMove,
    private readonly opts: StepOptions & { now: () => Date },
  ) {
    this.from = deps.shard(move.fromShard);
    this.to = deps.shard(move.toShard);
    this.budget = opts.budget ?? STEP_QUERY_BUDGET;
    this.crash = opts.crash ?? (() => {});
  }

  private get cursor(): Cursor {
    return JSON.parse(this.move.cursor) as Cursor;
  }

  private iso = () => this.opts.now().toISOString();
  private spent = () => this.queries >= this.budget;

  /** Saves where the move stands (after the work it records has committed). */
  private async save(set: Partial<ShardMove>) {
    const [row] = await this.deps.directory
      .update(shardMoves)
      .set({ ...set, updatedAt: this.iso(), error: null })
      .where(eq(shardMoves.id, this.move.id))
      .returning();
    this.queries++;
    this.move = row;
  }

  async run() {
    while (!this.spent() && this.move.phase !== "done") {
      const phase = this.move.phase as MovePhase;
      if (phase === "copying") {
        if (await this.pass("all", "before")) await this.save({ phase: "catching_up", cursor: JSON.stringify({ table: 0, after: 0, passStart: this.iso() }) });
      } else if (phase === "catching_up") {
        if (await this.pass("changed", "before")) {
          const c = this.cursor;
          const nextSince = new Date(new Date(c.passStart!).getTime() - MARGIN_MS).toISOString();
          if ((c.passRows ?? 0) >= SETTLED_ROWS) await this.save({ since: nextSince, cursor: JSON.stringify({ table: 0, after: 0, passStart: this.iso() }) });
          else await this.switchOver(nextSince);
        }
      } else if (phase === "switched") {
        if (await this.pass("changed", "after")) {
          const since = new Date(new Date(this.cursor.passStart!).getTime() - MARGIN_MS).toISOString();
          await this.save({ phase: "final", since, cursor: JSON.stringify({ table: 0, after: 0 }) });
        }
      } else if (phase === "final") {
        const grace = this.opts.graceMs ?? GRACE_MS;
        if (this.opts.now().getTime() - Date.parse(this.move.switchedAt!) < grace) return;
        if (this.cursor.passStart === undefined) await this.save({ cursor: JSON.stringify({ table: 0, after: 0, passStart: this.iso() }) });
        if (await this.pass("changed", "after")) await this.save({ phase: "deleting", cursor: JSON.stringify({ table: 0, after: 0 }) });
      } else if (phase === "deleting") {
        if (await this.deleteOld()) await this.save({ phase: "done", finishedAt: this.iso(), cursor: JSON.stringify({ table: 0, after: 0 }) });
      }
    }
  }

  /**
   * One pass over the tables from the cursor: every row of the account ("all") or those changed
   * since the move's mark ("changed"). True when the pass has finished; false when the budget ran out.
   */
  private async pass(rows: "all" | "changed", when: "before" | "after"): Promise<boolean> {
    // At least one page per call, however small the budget: every step moves the move on.
    for (let first = true; ; first = false) {
      const c = this.cursor;
      if (c.table >= MOVED_TABLES.length) return true;
      if (this.spent() && !first) return false;
      const t = MOVED_TABLES[c.table];
      if (rows === "changed" && !t.changed) {
        await this.save({ cursor: JSON.stringify({ ...c, table: c.table + 1, after: 0 }) });
        continue;
      }
      const copied = await this.copyPage(t, c.after, rows === "changed" ? this.move.since : null, when);
      this.crash(`${this.move.phase}:page`);
      const next = copied.last === null ? { ...c, table: c.table + 1, after: 0 } : { ...c, after: copied.last };
      await this.save({
        cursor: JSON.stringify({ ...next, passRows: (c.passRows ?? 0) + copied.count }),
        rowsCopied: this.move.rowsCopied + copied.count,
      });
      this.crash(`${this.move.phase}:saved`);
    }
  }

  /** Copies one page of a table's rows after `after`; last is null when the table had no more. */
  private async copyPage(t: MovedTable, after: After, since: string | null, when: "before" | "after") {
    const name = tableName(t);
    const changed = since && t.changed ? ` AND (${t.changed.map((col) => `${col} >= ?4`).join(" OR ")})` : "";
    const [order, from] = t.keyset
      ? [t.keyset.join(", "), after === 0 ? ["", 0] : (after as [string, number])]
      : ["rowid", [after as number, 0]];
    const read = await this.from
      .prepare(`SELECT rowid AS _rowid, * FROM ${name} WHERE ${t.owner} AND (${order}) > (?2${t.keyset ? ", ?3" : ""})${changed} ORDER BY ${order} LIMIT ${PAGE_ROWS}`)
      // As many values as the highest ?N the statement names.
      .bind(...[this.move.userId, from[0], from[1], since].slice(0, changed ? 4 : t.keyset ? 3 : 2))
      .all<Record<string, unknown>>();
    this.queries++;
    const page = read.results;
    if (page.length === 0) return { count: 0, last: null };
    const statements = chunks(page).map((json) => this.to.prepare(upsertSql(t, when === "after")).bind(json));
    if (t.table === callLogs && since) statements.push(...this.rollupMarks(page));
    await this.to.batch(statements);
    this.queries += statements.length;
    if (t.table === callLogs) await this.indexCalls(page);
    const last = page[page.length - 1];
    return { count: page.length, last: (t.keyset ? [last[t.keyset[0]], last[t.keyset[1]]] : last._rowid) as After };
  }

  /** Caught-up calls change their days' and hours' figures: marked on the new shard for the roll-up job. */
  private rollupMarks(page: Record<string, unknown>[]): D1PreparedStatement[] {
    const to = createDb(this.to);
    const days = page.map((r) => nyDayOf(r.start_time as string));
    const ids = JSON.stringify(page.map((r) => r.call_id));
    const hours = callHoursChanged(to, sql`${callLogs.callId} IN (SELECT value FROM json_each(${ids}))`);
    return this.drizzleStatements([...markDaysDirty(to, "call_logs", days), hours]);
  }

  /** Drizzle statements as the new shard's prepared statements, to go in one batch with the raw upserts. */
  private drizzleStatements(statements: { toSQL(): { sql: string; params: unknown[] } }[]): D1PreparedStatement[] {
    return statements.map((s) => {
      const q = s.toSQL();
      return this.to.prepare(q.sql).bind(...q.params);
    });
  }

  /**
   * The copied calls' search rows on the new shard, from the calls as the new shard holds them (its
   * ids). Their transcripts come from the old shard's index, read beside them, not from R2: a step
   * copies thousands of calls, and an invocation makes at most 1,000 operations on D1 and R2 together.
   * Only a call the old shard never indexed (its index step lost) is read from R2.
   */
  private async indexCalls(page: Record<string, unknown>[]) {
    const ids = JSON.stringify(page.map((r) => r.call_id));
    const [rows, indexed] = await Promise.all([
      this.to.prepare(`SELECT ${SOURCE_COLUMNS} FROM call_logs WHERE call_id IN (SELECT value FROM json_each(?1))`).bind(ids).all<SearchSource>(),
      this.from
        .prepare(
          `SELECT c.call_id AS callId, s.transcript AS transcript FROM call_logs c
             JOIN call_search_docs d ON d.call_log_id = c.id JOIN call_search s ON s.rowid = d.doc_rowid
           WHERE c.call_id IN (SELECT value FROM json_each(?1))`,
        )
        .bind(ids)
        .all<{ callId: string; transcript: string | null }>(),
    ]);
    this.queries += 2;
    const texts = new Map(indexed.results.map((r) => [r.callId, r.transcript]));
    const sources = rows.results.map((r) => (r.transcript == null && texts.get(r.callId) ? { ...r, transcript: texts.get(r.callId)! } : r));
    await writeSearchRows(this.to, this.deps.text, sources);
    this.queries += 4;
  }

  /**
   * The switch: the account's live-feed numbering goes on on the new shard past the old one's (a gap
   * makes every browser resuming from an old cursor refetch its lists), then ONE directory batch
   * points profiles.shard at the new shard and records the switch.
   */
  private async switchOver(since: string) {
    const highest = await this.from
      .prepare("SELECT max(account_seq) AS n FROM call_log_changes WHERE user_id = ?1")
      .bind(this.move.userId)
      .first<{ n: number | null }>();
    // Days the old shard had marked for its roll-up job and not yet rebuilt: the copied roll-ups of
    // those days are stale, so the new shard rebuilds them too.
    const dirty = await this.from.prepare("SELECT day FROM rollup_dirty_days WHERE source = 'call_logs'").all<{ day: string }>();
    await this.to.batch([
      ...this.drizzleStatements(markDaysDirty(createDb(this.to), "call_logs", dirty.results.map((r) => r.day))),
      this.to.prepare("DELETE FROM call_log_changes WHERE user_id = ?1").bind(this.move.userId),
      this.to
        .prepare(
          `INSERT INTO call_log_changes (user_id, call_log_id, account_seq)
           SELECT ?1, id, ?2 FROM call_logs WHERE user_id = ?1 ORDER BY updated_at DESC, id DESC LIMIT 1`,
        )
        .bind(this.move.userId, (highest?.n ?? 0) + 1000),
    ]);
    this.queries += 4;
    this.crash("switch:before");
    const at = this.iso();
    const d = this.deps.directory;
    await d.batch([
      d.update(profiles).set({ shard: this.move.toShard }).where(and(eq(profiles.id, this.move.userId), eq(profiles.shard, this.move.fromShard))),
      d
        .update(shardMoves)
        .set({ phase: "switched", switchedAt: at, since, updatedAt: at, cursor: JSON.stringify({ table: 0, after: 0, passStart: at }) })
        .where(and(eq(shardMoves.id, this.move.id), eq(shardMoves.phase, "catching_up"))),
    ]);
    this.queries += 2;
    this.move = (await d.select().from(shardMoves).where(eq(shardMoves.id, this.move.id)).get())!;
    this.crash("switch:after");
  }

  /** Deletes the account's rows on the old shard, children first, DELETE_ROWS per statement. True when none is left. */
  private async deleteOld(): Promise<boolean> {
    const order = [...MOVED_TABLES].reverse();
    for (let first = true; ; first = false) {
      const c = this.cursor;
      if (c.table > order.length) return true;
      if (this.spent() && !first) return false;
      if (c.table === 0) {
        // The search rows first (they name the calls), then the live feed's change log.
        await this.from.batch([
          ...REMOVE_ACCOUNT_STATEMENTS.map((q) => this.from.prepare(q).bind(this.move.userId)),
          this.from.prepare("DELETE FROM call_log_changes WHERE user_id = ?1").bind(this.move.userId),
        ]);
        this.queries += 3;
        await this.save({ cursor: JSON.stringify({ table: 1, after: 0 }) });
        continue;
      }
      const t = order[c.table - 1];
      const name = tableName(t);
      const res = await this.from
        .prepare(`DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${t.owner} LIMIT ${DELETE_ROWS})`)
        .bind(this.move.userId)
        .run();
      this.queries++;
      this.crash("deleting:batch");
      if ((res.meta.changes ?? 0) < DELETE_ROWS) await this.save({ cursor: JSON.stringify({ table: c.table + 1, after: 0 }) });
    }
  }
}
