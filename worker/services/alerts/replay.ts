// The Test button (decision 071): what an unsaved rule would have said over the last 7 days. A call
// metric is replayed minute by minute over the account's calls per (assistant, minute), read in one
// statement, with the same transition (fire once per breach, cooldown, resolve) the evaluation
// uses. A store metric is defined over whole New York days (today, yesterday), and its past days are
// in the day roll-ups, so it is replayed once per day (the last 7 days, then now) with the same
// transition. Minutes used (a month-to-date sum) and the silent line (a baseline learned per hour)
// have no cheap past at any grain: Test answers their value now.
import { ALERT_METRICS, ALERT_TEST_DAYS } from "@shared/alerts";
import type { AlertRuleBody, AlertTestResponse } from "@shared/schemas/alerts";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import type { CurrentUser } from "../profiles";
import { transition } from "./evaluate";
import type { AlertDbs } from "./rules";
import {
  assistantsOf,
  callMetricValue,
  minutesUsedValue,
  minuteRowsStatement,
  numberAssistant,
  silentLineStatements,
  silentLineValue,
  storeMetricValue,
  MINUTE_MS,
  type AccountScopes,
  type MinuteRow,
} from "./values";

const DAY_MS = 86_400_000;

/**
 * A rule's evaluations in time order through the evaluation's `transition`, with no state saved: what
 * fired when and, if it did, when it resolved.
 */
function replayer(rule: AlertRuleBody) {
  const state = { status: "ok" as "ok" | "triggered", last_fired_at: null as string | null, cooldown_minutes: rule.cooldownMinutes, comparison: rule.comparison, threshold: rule.threshold };
  const firings: AlertTestResponse["firings"] = [];
  return {
    firings,
    step(at: Date, value: number | null) {
      const change = transition(state, value, at);
      if (change === "fire") {
        state.status = "triggered";
        state.last_fired_at = at.toISOString();
        firings.push({ at: at.toISOString(), value: value ?? 0, resolvedAt: null });
      } else if (change === "resolve") {
        state.status = "ok";
        firings[firings.length - 1].resolvedAt = at.toISOString();
      }
    },
  };
}

/**
 * `scopes`: the account's agents and numbers as the save's checks read them (checkForAccount), so the
 * replay reads only the account's calls, on its shard; a store metric reads the directory.
 */
export async function testRule(dbs: AlertDbs, user: CurrentUser, rule: AlertRuleBody, now: Date, scopes: AccountScopes): Promise<AlertTestResponse> {
  const d1 = d1Of(dbs.shard);
  const from = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - ALERT_TEST_DAYS * DAY_MS);
  const base = { from: from.toISOString(), to: now.toISOString() };
  const metric = ALERT_METRICS[rule.metric];

  if (metric.flag) return { ...base, ...(await replayByDay(dbs.directory, rule, now)) };
  if (!metric.fromCalls || rule.windowMinutes === 0) {
    let current: number | null = null;
    if (rule.metric === "minutes_used") current = await minutesUsedValue(dbs, user.id, now);
    else {
      const [baseline, last] = await d1.batch<Record<string, unknown>>(silentLineStatements(d1, numberAssistant(scopes, rule.scopeId), now));
      current = silentLineValue(baseline.results as { had: number }[], last.results[0] as { last: string | null; assistant: string | null }, now);
    }
    return { ...base, replayed: false, grain: "now", fired: 0, firings: [], current };
  }

  const since = new Date(from.getTime() - rule.windowMinutes * MINUTE_MS);
  const minutes = await minuteRowsStatement(d1, user.id, since, now).all<MinuteRow>();
  const assistants = assistantsOf(scopes, rule.scopeKind, rule.scopeId);
  const rows = minutes.results.filter((r) => !assistants || assistants.has(r.assistant));

  // Prefix sums per minute, so each minute's window is one difference however long the window.
  const firstMinute = Math.floor(since.getTime() / MINUTE_MS);
  const lastMinute = Math.floor(now.getTime() / MINUTE_MS);
  const fields = ["total", "errors", "forwarded", "ended", "cost"] as const;
  const size = lastMinute - firstMinute + 2;
  const prefix = Object.fromEntries(fields.map((f) => [f, new Float64Array(size)])) as Record<(typeof fields)[number], Float64Array>;
  for (const r of rows) {
    const i = r.minute - firstMinute + 1;
    if (i < 1 || i >= size) continue;
    for (const f of fields) prefix[f][i] += Number(r[f]);
  }
  for (const f of fields) for (let i = 1; i < size; i++) prefix[f][i] += prefix[f][i - 1];

  const replay = replayer(rule);
  let current: number | null = null;
  for (let m = Math.floor(from.getTime() / MINUTE_MS); m <= lastMinute; m++) {
    // Evaluated at the end of minute m: the window is minutes [m - window, m], as the cron's.
    const at = new Date((m + 1) * MINUTE_MS - 1);
    const hi = m - firstMinute + 1;
    const lo = Math.max(0, m - rule.windowMinutes - firstMinute);
    const sums = Object.fromEntries(fields.map((f) => [f, prefix[f][hi] - prefix[f][lo]])) as Record<(typeof fields)[number], number>;
    const value = callMetricValue(rule.metric, [{ assistant: "", minute: m, ...sums }], new Date(m * MINUTE_MS), at, null);
    current = value;
    replay.step(at, value);
  }
  return { ...base, replayed: true, grain: "minute", fired: replay.firings.length, firings: replay.firings, current };
}

type Replay = Pick<AlertTestResponse, "replayed" | "grain" | "fired" | "firings" | "current">;

/**
 * A store metric over the last 7 days, one evaluation per day: the value as of this time of day on
 * each of the 7 days before today (its whole day, from the roll-ups), then now, through `transition`.
 */
async function replayByDay(db: Database, rule: AlertRuleBody, now: Date): Promise<Replay> {
  const days = Array.from({ length: ALERT_TEST_DAYS + 1 }, (_, i) => new Date(now.getTime() - (ALERT_TEST_DAYS - i) * DAY_MS));
  const values = await Promise.all(days.map((at) => storeMetricValue(db, rule.metric, rule.scopeId, at)));
  const replay = replayer(rule);
  days.forEach((at, i) => replay.step(at, values[i]));
  return { replayed: true, grain: "day", fired: replay.firings.length, firings: replay.firings, current: values[values.length - 1] };
}
