// Worker-test helpers that insert factory rows (worker/db/factories.ts, the same ones the seed
// uses) into the test D1 through drizzle, in statements that respect D1's 100 bound parameters.
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { ALERT_COOLDOWN, ALERT_METRICS } from "../../shared/alerts";
import type { Store } from "../../shared/constants";
import type { AppointmentRecordInput } from "../../shared/schemas/ingest";
import { nyLocalToUtc } from "../../shared/ny-time";
import {
  type AgentInput,
  type AgentRow,
  type AircallCallRow,
  type AppointmentRow,
  type CallLogInput,
  type CallLogRow,
  type Customer,
  type LeadRow,
  type PhoneNumberInput,
  type PhoneNumberRow,
  type ProfileRow,
  type TimeWindow,
  Rng,
  makeAgent,
  makeAircallCall,
  makeAppointment,
  makeCallLog,
  makeLead,
  makePhoneNumber,
  makeProfile,
} from "../db/factories";
import { agents, aircallCalls, appointments, callLogs, leads, phoneNumbers, profiles } from "../db/schema";
import { rowsPerStatement } from "../db/client";
import { numberOfferStatements } from "../services/phone-numbers";
import type { Database } from "../db/client";
import { db, shardOf } from "./helpers";

const STATEMENTS_PER_BATCH = 50;

// Every helper call draws from a fresh stream and fresh sequence numbers, so rows inserted by
// several calls in one test file (which share one database) never collide on unique keys.
let stream = 0;
// Far above what a seed uses, so helpers and a seed can share one test database.
let seq = 500_000_000;
const nextRng = () => Rng.for(0x7e57, `test:${++stream}`);
const nextSeq = () => seq++;

/**
 * Inserts rows in batches of multi-row statements into `into` (the directory by default, or an
 * account's shard); returns the inserted rows as stored.
 */
export async function insertRows<T extends SQLiteTable>(table: T, rows: T["$inferInsert"][], into: Database = db()): Promise<T["$inferSelect"][]> {
  const per = rowsPerStatement(table);
  // drizzle's generic insert types do not follow a table type parameter; the rows are typed above.
  const d = into as any;
  const statements = [];
  for (let i = 0; i < rows.length; i += per) statements.push(d.insert(table).values(rows.slice(i, i + per)).returning());
  const out: T["$inferSelect"][] = [];
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    const results: T["$inferSelect"][][] = await d.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
    for (const r of results) out.push(...r);
  }
  return out;
}

/** A New York day's opening hours (09:00-18:00) as a window, for rows that must fall on that day. */
export function nyBusinessHours(date: string): TimeWindow {
  return { fromMs: nyLocalToUtc(date, 9).getTime(), toMs: nyLocalToUtc(date, 18).getTime() };
}

/** The last week up to an hour ago: finished calls, none still running. */
export function recentWindow(now = Date.now()): TimeWindow {
  return { fromMs: now - 7 * 86_400_000, toMs: now - 3_600_000 };
}

export async function insertProfile(overrides: Partial<ProfileRow> = {}) {
  const rng = nextRng();
  const n = nextSeq();
  const [row] = await insertRows(profiles, [makeProfile(rng, { email: overrides.email ?? `factory.${n}.${rng.hex(6)}@example.com` }, overrides)]);
  return row;
}

let agentCount = 0;
/** An agent of this account; by default active, with a store and type that cycle so names stay unique. */
export async function insertAgent(userId: string, overrides: Partial<AgentRow> = {}, input: Partial<AgentInput> = {}) {
  const k = agentCount++;
  const store: Store | null = input.store === undefined ? (["IOWA", "LARGO", "MIAMI", "NAPLES", "PEMBROKE", "TULSA", "TYLER", "WOODLANDS", "OKC"] as const)[k % 9] : input.store;
  const type = input.type ?? (Math.floor(k / 9) % 2 === 0 ? "inbound" : "outbound");
  const row = makeAgent(nextRng(), { userId, store, type, active: input.active ?? true, company: input.company });
  if (k >= 18 && overrides.name === undefined) row.name = `${row.name} ${k}`;
  const [agent] = await insertRows(agents, [{ ...row, ...overrides }]);
  return agent;
}

export async function insertPhoneNumber(userId: string | null, overrides: Partial<PhoneNumberRow> = {}, input: Partial<PhoneNumberInput> = {}) {
  const [row] = await insertRows(phoneNumbers, [makePhoneNumber(nextRng(), { userId, ...input }, overrides)]);
  return row;
}

export interface CallLogOptions {
  /** The agent that made or took the calls (default: none, inbound). */
  agent?: CallLogInput["agent"];
  /** Start times fall in this window (default: the last week up to an hour ago). */
  window?: TimeWindow;
  /** Or in this New York day's opening hours. */
  day?: string;
  nowMs?: number;
  customer?: Customer;
}

const windowOf = (o: { window?: TimeWindow; day?: string }) => o.window ?? (o.day ? nyBusinessHours(o.day) : recentWindow());

export async function insertCallLogs(userId: string | null, n: number, overrides: Partial<CallLogRow> = {}, options: CallLogOptions = {}) {
  const rng = nextRng();
  const agent: CallLogInput["agent"] = options.agent ?? { vapiAssistantId: null, store: null, type: "inbound" };
  const window = windowOf(options);
  const rows = Array.from({ length: n }, () =>
    makeCallLog(rng, { userId, agent, window, nowMs: options.nowMs, customer: options.customer }, overrides),
  );
  // An account's calls go to its shard (decision 076); a call no account owns yet waits in the directory.
  return insertRows(callLogs, rows, userId ? await shardOf(userId) : db());
}

export async function insertAircallCalls(n: number, overrides: Partial<AircallCallRow> = {}, options: { window?: TimeWindow; day?: string; store?: Store } = {}) {
  const rng = nextRng();
  const window = windowOf(options);
  const rows = Array.from({ length: n }, () => makeAircallCall(rng, { seq: nextSeq(), window, store: options.store }, overrides));
  return insertRows(aircallCalls, rows);
}

export async function insertAppointments(
  n: number,
  overrides: Partial<AppointmentRow> = {},
  options: { window?: TimeWindow; day?: string; store?: Store; nowMs?: number; customer?: Customer } = {},
) {
  const rng = nextRng();
  const window = windowOf(options);
  const nowMs = options.nowMs ?? Date.now();
  const rows = Array.from({ length: n }, () =>
    makeAppointment(rng, { seq: nextSeq(), window, nowMs, store: options.store, customer: options.customer }, overrides),
  );
  return insertRows(appointments, rows);
}

export async function insertLeads(n: number, overrides: Partial<LeadRow> = {}, options: { window?: TimeWindow; day?: string; store?: Store } = {}) {
  const rng = nextRng();
  const window = windowOf(options);
  const rows = Array.from({ length: n }, () => makeLead(rng, { seq: nextSeq(), window, store: options.store }, overrides));
  return insertRows(leads, rows);
}

/** The fields that make an agent complete (docs/product/README.md#states-and-flows), for service tests that create one directly. */
export const COMPLETE_AGENT_FIELDS = {
  business_description: "A bicycle shop that repairs and sells city bikes.",
  services: "Repairs, tune-ups, new and used bikes, rentals.",
  agent_instructions: "Answer questions and book repair slots politely.",
  pricing_information: "",
  documents: "",
  store: null,
  type: null,
};

/** What a number search leaves behind: these numbers offered to the account, so it may buy them. */
export async function offerNumbers(userId: string, numbers: string[]) {
  for (const statement of numberOfferStatements(db(), userId, numbers)) await statement;
}

/** A VAPI end-of-call report of one inbound call of `assistantId`, as the webhook's JSON body. */
export const endOfCallReportBody = (
  assistantId: string,
  callId: string,
  { summary = "Booked a hearing test.", transcript = "AI: Hello.\nHuman: Hi.", number = "+13055550100" }: { summary?: string; transcript?: string; number?: string } = {},
) =>
  JSON.stringify({
    message: {
      type: "end-of-call-report",
      endedReason: "customer-ended-call",
      startedAt: "2026-11-20T15:00:00.000Z",
      endedAt: "2026-11-20T15:02:00.000Z",
      analysis: { summary },
      artifact: { transcript, messages: [] },
      call: { id: callId, type: "inboundPhoneCall", status: "ended", assistantId, customer: { number }, createdAt: "2026-11-20T14:59:58.000Z" },
    },
  });

/** One appointment as the ingestion API takes it (a Miami eye exam booked by the AI receptionist). */
export function ingestAppointmentRecord(id: string, overrides: Partial<AppointmentRecordInput> = {}): AppointmentRecordInput {
  return {
    external_id: id,
    store: "MIAMI",
    begin_utc: "2026-04-14T10:30:00-04:00",
    booked_at: "2026-04-02T15:12:00Z",
    booked_by: "AI Receptionist",
    appointment_type: "Eye Exam",
    status: "Scheduled",
    booking_channel: "inbound",
    customer_name: "Maria Lopez",
    customer_phone: "(305) 555-0142",
    ...overrides,
  };
}

/** An alert rule any account may save (its calls' count, over all of them, no flag needed): the fields of a row and of a body. */
export function plainAlertRule(name: string) {
  const metric = ALERT_METRICS.call_count;
  return {
    name,
    metric: metric.id,
    scopeKind: "all",
    scopeId: "",
    comparison: metric.comparisons[0],
    threshold: metric.threshold.min,
    windowMinutes: metric.windows[0],
    cooldownMinutes: ALERT_COOLDOWN.min,
    severity: "warning",
  } as const;
}
