// The dashboard's figures beyond spec 1 (docs/spec-deviations.md): daily call volume for
// the chart, and the per-store funnel with call cost. Both read the same roll-ups as the counts
// (call_log_daily has the platform's cost per day, assistant and direction, call_log_user_daily the
// same per day and direction), so they cost O(days).
import { CALL_TYPE_DIRECTIONS, STORES, type CallType, type Store } from "@shared/constants";
import type { CallVolumeFigures, CallVolumeResponse, StoreFunnelResponse, StoreFunnelRow } from "@shared/schemas/insights";
import { nyDateRange } from "@shared/ny-time";
import { appointmentCountsByStorePlan } from "./counts/appointments";
import { figureStatements, groupKey, overCoverage, type Condition } from "./counts/engine";
import { callLogSpec, callLogSpecFor } from "./counts/figures";
import type { DbMeter } from "./counts/meter";

const FIGURES = ["total", "connected", "voicemail", "forwarded", "cost"] as const;
/** Costs are summed in floating point: cents are enough on screen, six decimals keep sums stable. */
const money = (n: number) => Math.round(n * 1e6) / 1e6;
const zero = (): CallVolumeFigures => ({ total: 0, connected: 0, voicemail: 0, forwarded: 0, cost: 0 });

/** The caller's calls per New York day and direction, every day of the range present. */
export async function callVolume(
  meter: DbMeter,
  userId: string,
  q: { startDate: string; endDate: string; callType: CallType; agent?: string },
): Promise<CallVolumeResponse> {
  const directions = CALL_TYPE_DIRECTIONS[q.callType];
  const conditions: Condition[] = [
    { sql: "r.user_id = ?", params: [userId] },
    { sql: `+r.direction IN (${directions.map(() => "?").join(", ")})`, params: [...directions] },
  ];
  if (q.agent) conditions.push({ sql: "+r.assistant_id = ?", params: [q.agent] });
  const sums = await overCoverage(meter, ["call_logs"], q, (coverage) =>
    figureStatements(meter, callLogSpecFor(q.agent), coverage.call_logs, FIGURES, conditions, ["day", "direction"]),
  );
  let calls = 0;
  let cost = 0;
  const days = nyDateRange(q.startDate, q.endDate).map((date) => {
    const of = (direction: "inbound" | "outbound"): CallVolumeFigures => {
      const f = sums.get(groupKey(date, direction));
      if (!f) return zero();
      calls += f.total;
      cost += f.cost;
      return { total: f.total, connected: f.connected, voicemail: f.voicemail, forwarded: f.forwarded, cost: money(f.cost) };
    };
    return { date, inbound: of("inbound"), outbound: of("outbound") };
  });
  return { days, totals: { calls, cost: money(cost), costPerCall: calls ? money(cost / calls) : null } };
}

/**
 * Per store: the caller's AI calls and their cost (calls of the assistants its store agents hold,
 * from the roll-ups), then the store's appointments booked by inbound and outbound calls, visited
 * and sold in the same range (decision 009's categories). Rates compare the range's figures; they
 * do not follow each call to its appointment (the appointment analysis does that). The calls are on
 * the account's shard, the agents and appointments in the directory (decision 076): each database's
 * batch goes at the same time.
 */
export async function storeFunnel(meters: { directory: DbMeter; shard: DbMeter }, userId: string, q: { startDate: string; endDate: string }): Promise<StoreFunnelResponse> {
  const { directory, shard } = meters;
  // Each database's part in one batch with its source's coverage (overCoverage); the two in parallel.
  const [byAssistant, { held, appointments }] = await Promise.all([
    overCoverage(shard, ["call_logs"], q, (coverage) =>
      figureStatements(shard, callLogSpec, coverage.call_logs, ["total", "cost"], [
        { sql: "r.user_id = ?", params: [userId] },
        { sql: "+r.direction IN ('inbound', 'outbound')", params: [] },
      ], "assistant_id"),
    ),
    overCoverage(directory, ["appointments"], q, (coverage) => {
      const agents = directory.statement("SELECT vapi_assistant_id AS assistantId, store FROM agents WHERE user_id = ? AND vapi_assistant_id IS NOT NULL", [userId]);
      const range = { dateFilterType: "range", startDate: q.startDate, endDate: q.endDate, store: undefined, bookedBy: undefined, appointmentType: undefined } as const;
      const stores = appointmentCountsByStorePlan(directory, range, coverage.appointments);
      return {
        statements: [agents, ...stores.statements],
        read: ([agentRows, ...results]: Record<string, unknown>[][]) => ({ held: agentRows, appointments: stores.read(results) }),
      };
    }),
  ]);
  const storeOf = new Map(held.map((a) => [a.assistantId as string, a.store as Store | null]));
  const perStore = new Map<string, { aiCalls: number; cost: number }>();
  const unassigned = { aiCalls: 0, cost: 0 };
  for (const [assistant, f] of byAssistant) {
    const store = storeOf.get(assistant);
    const into = store ? (perStore.get(store) ?? perStore.set(store, { aiCalls: 0, cost: 0 }).get(store)!) : unassigned;
    into.aiCalls += f.total;
    into.cost += f.cost;
  }
  const stores = STORES.map((store): StoreFunnelRow => {
    const c = perStore.get(store) ?? { aiCalls: 0, cost: 0 };
    const a = appointments.get(store)?.categories;
    return {
      store,
      aiCalls: c.aiCalls,
      cost: money(c.cost),
      costPerCall: c.aiCalls ? money(c.cost / c.aiCalls) : null,
      inboundBooked: a?.["Inbound Booked"] ?? 0,
      outboundBooked: a?.["Outbound Booked"] ?? 0,
      visited: a?.["Reservations visit"] ?? 0,
      sold: a?.["Reservations took (sold)"] ?? 0,
    };
  });
  return { stores, unassigned: { aiCalls: unassigned.aiCalls, cost: money(unassigned.cost) } };
}
