// The values of the alert metrics (shared/alerts.ts has their definitions): what one evaluation
// reads, in as few round trips as it can. The call metrics read, per account, one grouped statement
// over its calls of the longest window its rules ask for, per (assistant, minute), through the
// (user_id, start_time) index: the hourly roll-up lags the clock by up to 75 minutes and holds no
// failure count, so a 15-minute window cannot be read from it (decision 071). Statements of many
// accounts go in one batch. Store metrics are the store network's, not an account's: they are read
// once per run through the counts engine (roll-ups plus the live part), whoever asks.
import { type AlertMetricId } from "@shared/alerts";
import type { AccountPlan } from "@shared/schemas/agents";
import { FAILURE_ENDED_REASON_PATTERNS, FORWARDED_ENDED_REASONS } from "@shared/call-outcomes";
import { STORES, type Store } from "@shared/constants";
import { addDays, nyDayOf } from "@shared/ny-time";
import type { Database } from "../../db/client";
import { aircallCallCount, STORE_LINES_SQL } from "../counts/aircall";
import { appointmentStatusCounts } from "../counts/appointments";
import { countOver } from "../counts/engine";
import { aircallNumberSpec } from "../counts/figures";
import { leadSummary } from "../counts/leads";
import { meterFor } from "../counts/meter";
import { accountPlan, monthSecondsFor } from "../plans";

export const MINUTE_MS = 60_000;

/** The start of the window of `minutes` whole minutes ending now (see WINDOW_DEFINITION). */
export const windowStart = (now: Date, minutes: number) => new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - minutes * MINUTE_MS);

const failureSql = `(${FAILURE_ENDED_REASON_PATTERNS.map((p) => `r.ended_reason LIKE '${p}'`).join(" OR ")})`;
const forwardedSql = `r.ended_reason IN (${FORWARDED_ENDED_REASONS.map((r) => `'${r}'`).join(", ")})`;

/** One account's calls per (assistant, minute): the call metrics are sums over these. */
export type MinuteRow = { assistant: string; minute: number; total: number; errors: number; forwarded: number; ended: number; cost: number };

/** The statement of one account's minute rows in [since, until]. */
export function minuteRowsStatement(d1: D1Database, userId: string, since: Date, until: Date) {
  return d1
    .prepare(
      "SELECT coalesce(r.assistant_id, '') AS assistant, CAST(strftime('%s', r.start_time) AS INTEGER) / 60 AS minute, count(*) AS total, " +
        `sum(CASE WHEN ${failureSql} THEN 1 ELSE 0 END) AS errors, sum(CASE WHEN ${forwardedSql} THEN 1 ELSE 0 END) AS forwarded, ` +
        "sum(CASE WHEN r.ended_reason IS NOT NULL THEN 1 ELSE 0 END) AS ended, sum(coalesce(r.cost, 0)) AS cost " +
        "FROM call_logs r WHERE r.user_id = ? AND r.start_time >= ? AND r.start_time <= ? GROUP BY 1, 2",
    )
    .bind(userId, since.toISOString(), until.toISOString());
}

/**
 * A call metric's value over the rows of the window [since, now], for the assistants in scope (null:
 * every call of the account). Null when the metric has no value (a share without ended calls).
 */
export function callMetricValue(metric: AlertMetricId, rows: MinuteRow[], since: Date, now: Date, assistants: Set<string> | null): number | null {
  const from = Math.floor(since.getTime() / MINUTE_MS);
  const to = Math.floor(now.getTime() / MINUTE_MS);
  let total = 0;
  let errors = 0;
  let forwarded = 0;
  let ended = 0;
  let cost = 0;
  for (const r of rows) {
    if (r.minute < from || r.minute > to) continue;
    if (assistants && !assistants.has(r.assistant)) continue;
    total += r.total;
    errors += r.errors;
    forwarded += r.forwarded;
    ended += r.ended;
    cost += r.cost;
  }
  switch (metric) {
    case "call_count":
      return total;
    case "error_calls":
      return errors;
    case "forwarded_share":
      return ended === 0 ? null : (100 * forwarded) / ended;
    case "total_cost":
      return Math.round(cost * 100) / 100;
    default:
      return null;
  }
}

/** The account's agents and numbers: an agent's assistant, a number's agent, the labels shown. */
export type AccountScopes = {
  agents: { id: number; name: string; assistant: string | null }[];
  numbers: { id: number; phone: string; agentId: number | null }[];
};

export function scopesStatements(d1: D1Database, userId: string) {
  return [
    d1.prepare("SELECT id, name, vapi_assistant_id AS assistant FROM agents WHERE user_id = ? ORDER BY id").bind(userId),
    d1.prepare("SELECT id, phone_number AS phone, agent_id AS agentId FROM phone_numbers WHERE user_id = ? ORDER BY id").bind(userId),
  ];
}

export const readScopes = (agents: unknown[], numbers: unknown[]): AccountScopes => ({
  agents: agents as AccountScopes["agents"],
  numbers: numbers as AccountScopes["numbers"],
});

/** The assistants a call rule's scope reads (null: all the account's calls; empty: none, e.g. a number without an agent). */
export function assistantsOf(scopes: AccountScopes, kind: string, id: string): Set<string> | null {
  if (kind === "all") return null;
  const agentId = kind === "agent" ? Number(id) : (scopes.numbers.find((n) => String(n.id) === id)?.agentId ?? null);
  const assistant = scopes.agents.find((a) => a.id === agentId)?.assistant;
  return new Set(assistant ? [assistant] : []);
}

export function scopeLabel(scopes: AccountScopes, kind: string, id: string): string {
  if (kind === "all") return "All";
  if (kind === "agent") return scopes.agents.find((a) => String(a.id) === id)?.name ?? `Agent ${id}`;
  if (kind === "number") return scopes.numbers.find((n) => String(n.id) === id)?.phone ?? `Number ${id}`;
  return id;
}

/** The hours a silent-line rule compares with: the same New York weekday and hour in each of the last 4 weeks. */
export function silentLineBaselineHours(now: Date): { from: string; to: string }[] {
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return [1, 2, 3, 4].map((k) => ({ from: new Date(hour - k * 7 * 86_400_000).toISOString(), to: new Date(hour - k * 7 * 86_400_000 + 3_600_000).toISOString() }));
}

/** Weeks of the 4 with an inbound call in that hour at least this many: the hour "usually has calls". */
export const SILENT_LINE_USUAL_WEEKS = 3;

/** The voice assistant a silent-line rule's number reads: its agent's, or null without one. */
export const numberAssistant = (scopes: AccountScopes, numberId: string): string | null => {
  const [assistant] = assistantsOf(scopes, "number", numberId) ?? [];
  return assistant ?? null;
};

/**
 * A silent-line rule's statements on the account's shard, for its number's assistant (numberAssistant:
 * the agents and numbers are the directory's): whether each of the 4 baseline hours had an inbound
 * call on it, and its last inbound call; one index seek each on (assistant_id, start_time).
 */
export function silentLineStatements(d1: D1Database, assistant: string | null, now: Date) {
  const hours = silentLineBaselineHours(now);
  return [
    d1
      .prepare(hours.map(() => "SELECT EXISTS (SELECT 1 FROM call_logs WHERE assistant_id = ? AND start_time >= ? AND start_time < ? AND direction = 'inbound') AS had").join(" UNION ALL "))
      .bind(...hours.flatMap((h) => [assistant, h.from, h.to])),
    d1
      .prepare("SELECT max(start_time) AS last, ? AS assistant FROM call_logs WHERE assistant_id = ? AND direction = 'inbound' AND start_time <= ?")
      .bind(assistant, assistant, now.toISOString()),
  ];
}

/** Minutes since the last inbound call (24 h when none), or null outside usual hours or without an agent. */
export function silentLineValue(baseline: { had: number }[], last: { last: string | null; assistant: string | null } | undefined, now: Date): number | null {
  if (!last?.assistant) return null;
  const usual = baseline.filter((b) => Number(b.had) === 1).length >= SILENT_LINE_USUAL_WEEKS;
  if (!usual) return null;
  if (!last.last) return 1440;
  return Math.min(1440, Math.floor((now.getTime() - Date.parse(last.last)) / MINUTE_MS));
}

/** Percent of the plan's monthly minutes used (whole minutes, as the usage bar), or null without a plan. */
export function minutesUsedOf(plan: AccountPlan, seconds: number): number | null {
  if (!plan.plan || !plan.minuteLimit) return null;
  return (100 * Math.floor(seconds / 60)) / plan.minuteLimit;
}

/** minutesUsedOf for one account, read alone (the Test button's value now): the plan from the directory beside the month from its shard. */
export async function minutesUsedValue(dbs: { directory: Database; shard: Database }, userId: string, now: Date): Promise<number | null> {
  const [plan, seconds] = await Promise.all([accountPlan(dbs.directory, userId, now), monthSecondsFor(dbs.shard, userId, now)]);
  return minutesUsedOf(plan, seconds);
}

/** A store metric's value for one store (or every store: ""), by its definition. */
export async function storeMetricValue(db: Database, metric: AlertMetricId, store: string, now: Date): Promise<number | null> {
  const meter = meterFor(db);
  const today = nyDayOf(now);
  const yesterday = addDays(today, -1);
  const storeFilter = store ? (store as Store) : undefined;
  if (metric === "aircall_unanswered_share") {
    const range = { dateFilterType: "range" as const, startDate: today, endDate: today, store: storeFilter, userName: undefined, numberName: undefined };
    const inbound = await aircallCallCount(meter, { ...range, direction: "inbound" });
    if (inbound === 0) return null;
    const conditions = [{ sql: "r.direction = ?", params: ["inbound"] }];
    // A store is its Aircall line, however the line's name was typed (as the Aircall counts filter it).
    if (storeFilter) conditions.push({ sql: `r.number_name IN (${STORE_LINES_SQL})`, params: [storeFilter] });
    const { answered } = await countOver(meter, aircallNumberSpec, range, ["answered"], conditions);
    return (100 * (inbound - answered)) / inbound;
  }
  if (metric === "appointment_no_show_share") {
    const status = await appointmentStatusCounts(meter, {
      dateFilterType: "range",
      startDate: yesterday,
      endDate: yesterday,
      store: storeFilter,
      bookedBy: undefined,
      appointmentType: undefined,
    });
    const held = (status.Scheduled ?? 0) + (status.Visited ?? 0) + (status.Sold ?? 0) + (status["No Show"] ?? 0);
    return held === 0 ? null : (100 * (status["No Show"] ?? 0)) / held;
  }
  if (metric === "leads_drop") {
    const weekBefore = addDays(yesterday, -7);
    const [now_, before] = await Promise.all([
      leadSummary(meter, { dateFilterType: "range", startDate: yesterday, endDate: yesterday, store: storeFilter }),
      leadSummary(meter, { dateFilterType: "range", startDate: weekBefore, endDate: weekBefore, store: storeFilter }),
    ]);
    if (before.totalSubmissions === 0) return null;
    return (100 * (before.totalSubmissions - now_.totalSubmissions)) / before.totalSubmissions;
  }
  return null;
}

export const isStore = (value: string): value is Store => (STORES as readonly string[]).includes(value);
