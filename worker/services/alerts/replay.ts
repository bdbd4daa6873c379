// The Test button (decision 071): what an unsaved rule would have said over the last 7 days. A call
// metric is replayed minute by minute over the account's calls per (assistant, minute), read in one
// statement, with the same transition (fire once per breach, cooldown, resolve) the evaluation
// uses; the other metrics have no past figures at minute grain, so Test answers their value now.
import { ALERT_METRICS, ALERT_TEST_DAYS } from "@shared/alerts";
import type { AlertRuleBody, AlertTestResponse } from "@shared/schemas/alerts";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import type { CurrentUser } from "../profiles";
import { transition } from "./evaluate";
import {
  assistantsOf,
  callMetricValue,
  minutesUsedValue,
  minuteRowsStatement,
  readScopes,
  scopesStatements,
  silentLineStatements,
  silentLineValue,
  storeMetricValue,
  MINUTE_MS,
  type MinuteRow,
} from "./values";

export async function testRule(db: Database, user: CurrentUser, rule: AlertRuleBody, now: Date): Promise<AlertTestResponse> {
  const d1 = d1Of(db);
  const from = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - ALERT_TEST_DAYS * 86_400_000);
  const base = { from: from.toISOString(), to: now.toISOString() };
  const metric = ALERT_METRICS[rule.metric];

  if (!metric.fromCalls || rule.windowMinutes === 0) {
    let current: number | null = null;
    if (rule.metric === "minutes_used") current = await minutesUsedValue(db, user.id, now);
    else if (rule.metric === "silent_line") {
      const [baseline, last] = await d1.batch<Record<string, unknown>>(silentLineStatements(d1, user.id, rule.scopeId, now));
      current = silentLineValue(baseline.results as { had: number }[], last.results[0] as { last: string | null; assistant: string | null }, now);
    } else current = await storeMetricValue(db, rule.metric, rule.scopeId, now);
    return { ...base, replayed: false, fired: 0, firings: [], current };
  }

  const since = new Date(from.getTime() - rule.windowMinutes * MINUTE_MS);
  const [agents, numbers, minutes] = await d1.batch<Record<string, unknown>>([...scopesStatements(d1, user.id), minuteRowsStatement(d1, user.id, since, now)]);
  const assistants = assistantsOf(readScopes(agents.results, numbers.results), rule.scopeKind, rule.scopeId);
  const rows = (minutes.results as MinuteRow[]).filter((r) => !assistants || assistants.has(r.assistant));

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

  const state = { status: "ok" as "ok" | "triggered", last_fired_at: null as string | null, cooldown_minutes: rule.cooldownMinutes, comparison: rule.comparison, threshold: rule.threshold };
  const firings: AlertTestResponse["firings"] = [];
  let current: number | null = null;
  for (let m = Math.floor(from.getTime() / MINUTE_MS); m <= lastMinute; m++) {
    // Evaluated at the end of minute m: the window is minutes [m - window, m], as the cron's.
    const at = new Date((m + 1) * MINUTE_MS - 1);
    const hi = m - firstMinute + 1;
    const lo = Math.max(0, m - rule.windowMinutes - firstMinute);
    const sums = Object.fromEntries(fields.map((f) => [f, prefix[f][hi] - prefix[f][lo]])) as Record<(typeof fields)[number], number>;
    const value = callMetricValue(rule.metric, [{ assistant: "", minute: m, ...sums }], new Date(m * MINUTE_MS), at, null);
    current = value;
    const change = transition(state, value, at);
    if (change === "fire") {
      state.status = "triggered";
      state.last_fired_at = at.toISOString();
      firings.push({ at: at.toISOString(), value: value ?? 0, resolvedAt: null });
    } else if (change === "resolve") {
      state.status = "ok";
      firings[firings.length - 1].resolvedAt = at.toISOString();
    }
  }
  return { ...base, replayed: true, fired: firings.length, firings, current };
}
