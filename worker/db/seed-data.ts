// The demo data set, built from the same factories the tests use (`./factories.ts`).
// Deterministic for a given { seed, days, calls, now }; the big tables come out in chunks from
// generators, so a million call logs never sit in memory at once.
// Relative imports carry `.ts` because `scripts/seed.mjs` loads this file in plain Node through tsx.
import { STORES, type Store } from "../../shared/constants.ts";
import { addDays, nyDateRange, nyDayBounds, nyLocalToUtc, nyToday } from "../../shared/ny-time.ts";
import {
  type AgentRow,
  type AircallCallRow,
  type AppointmentRow,
  type AuthUserRow,
  type CallLogRow,
  type Customer,
  type LeadRow,
  type PhoneNumberRow,
  type ProfileRow,
  type SimAssistantRow,
  type TimeWindow,
  BRAND,
  Rng,
  makeAgent,
  makeAircallCall,
  makeAppointment,
  makeAuthUser,
  makeCallLog,
  makeCustomer,
  makeLead,
  makePhoneNumber,
  makeProfile,
  makeSimAssistant,
} from "./factories.ts";

export const DEMO_PASSWORD = "demo-password-1";
export const DEMO_EMAILS = {
  admin: "admin@demo.local",
  staff: "staff@demo.local",
  customer: "customer@demo.local",
} as const;

export const SEED_DEFAULTS = { seed: 20_260_308, days: 90, calls: 20_000 } as const;

/** Store-network tables grow with the call logs: per call log, this many rows. */
export const SEED_RATIOS = { aircallCalls: 0.5, appointments: 0.3, leads: 0.1 } as const;

/** Appointments are also booked this many days ahead, so "Upcoming" has something to show. */
export const APPOINTMENT_DAYS_AHEAD = 14;

/** Share of call logs that belong to the plain customer account; the rest are the store network's. */
const CUSTOMER_CALL_SHARE = 0.03;

export interface SeedOptions {
  seed?: number;
  days?: number;
  calls?: number;
  /** Rows of the store-network sources; each left out is its ratio of `calls` (SEED_RATIOS). */
  counts?: { aircallCalls?: number; appointments?: number; leads?: number };
  now?: Date;
  /** First autoincrement ids to use, so agents and numbers can be linked before they are inserted. */
  firstIds?: { agent?: number; phoneNumber?: number };
  /** The shard bindings (SHARD_0, …) the demo accounts are placed on (demoShards); none: the directory's trigger places them. */
  shards?: readonly string[];
}

/**
 * Each demo account's shard (decision 076): the store network's accounts (staff, whose calls are
 * most of the demo's, and the admin) on the first shard, the customer on the last, so every local
 * session reads its calls from one shard while the admin's figures and the jobs cross to the other.
 */
export function demoShards(shards: readonly string[]): Record<keyof typeof DEMO_EMAILS, string | null> {
  const first = shards[0] ?? null;
  return { admin: first, staff: first, customer: shards[shards.length - 1] ?? null };
}

interface DayPlan {
  date: string;
  /** Opening hours that day, New York time, cut at `now` for today. */
  open: TimeWindow;
  /** The whole calendar day, cut at `now` for today. */
  whole: TimeWindow;
  /** 0..1 share of the opening hours that has passed (1 for past days). */
  elapsed: number;
  /** 0..1 share of the calendar day that has passed. */
  wholeElapsed: number;
  weekday: number;
}

/** Splits `total` over `weights` in whole numbers that add up exactly (largest remainder). */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w / sum) * total);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k][1]]++;
  return out;
}

function planDays(first: string, last: string, nowMs: number): DayPlan[] {
  return nyDateRange(first, last).map((date) => {
    const open = { fromMs: nyLocalToUtc(date, 9).getTime(), toMs: nyLocalToUtc(date, 18).getTime() };
    const bounds = nyDayBounds(date);
    const whole = { fromMs: Date.parse(bounds.startUtc), toMs: Date.parse(bounds.endUtc) };
    const elapsed = Math.min(1, Math.max(0, (nowMs - open.fromMs) / (open.toMs - open.fromMs)));
    const [y, m, d] = date.split("-").map(Number);
    return {
      date,
      open: { fromMs: open.fromMs, toMs: Math.min(open.toMs, Math.max(open.fromMs, nowMs)) },
      whole: { fromMs: whole.fromMs, toMs: Math.min(whole.toMs, Math.max(whole.fromMs, nowMs)) },
      elapsed,
      wholeElapsed: Math.min(1, Math.max(0, (nowMs - whole.fromMs) / (whole.toMs - whole.fromMs))),
      weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay(),
    };
  });
}

// Relative traffic by weekday (Sunday first) and by store.
const CALL_WEEKDAY = [0.3, 1.1, 1, 1, 1, 0.95, 0.6];
const CENTRE_WEEKDAY = [0.1, 1.1, 1, 1, 1, 0.95, 0.5];
// Stores open on Sunday afternoons too, with fewer appointments: a Monday's "yesterday" shows a real day.
const STORE_DAY_WEEKDAY = [0.35, 1, 1, 1, 1, 1.1, 0.9];
const LEAD_WEEKDAY = [0.7, 1.1, 1, 1, 1, 0.9, 0.7];
const STORE_WEIGHT: Record<Store, number> = {
  IOWA: 0.8, LARGO: 0.9, MIAMI: 1.4, NAPLES: 0.9, PEMBROKE: 1, TULSA: 0.9, TYLER: 0.7, WOODLANDS: 1.2, OKC: 1.1,
};

/** Cumulative-weight picker: O(log n) per draw, for the million-row loops. */
function picker<T>(items: { item: T; weight: number }[]) {
  const cum: number[] = [];
  let acc = 0;
  for (const { weight } of items) cum.push((acc += weight));
  return (rng: Rng): T => {
    const r = rng.next() * acc;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return items[lo].item;
  };
}

function* chunked<T>(rows: Iterable<T>, size: number): Generator<T[]> {
  if (!(size >= 1)) throw new RangeError("chunk size must be at least 1");
  let chunk: T[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length >= size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
}

/** The demo accounts' customer and subscription ids, the same in D1 and at the local billing provider. */
export const demoCustomerId = (email: string) => `cus_demo_${email.split("@")[0]}`;
export const demoSubscriptionId = (email: string) => `sub_demo_${email.split("@")[0]}`;

/** The demo's plan: the local catalogue's annual Pro price (worker/providers/billing/catalogue.ts). */
export const DEMO_PRICE = {
  id: "price_local_pro_year",
  productId: "prod_local_pro",
  productName: "Pro",
  interval: "year",
  unitAmount: 107989,
  currency: "usd",
} as const;

/** A demo account's subscription to DEMO_PRICE, as its D1 row says it. */
type DemoSubscription = { id: string; customerId: string; email: string; name: string | null; status: string; currentPeriodEnd: string };

/**
 * A demo account's customer and subscription as the local billing provider keeps them
 * (billing_local_objects, Stripe's shapes: worker/providers/billing/local.ts): Settings → Subscription
 * lists and cancels through the provider, as production does with Stripe, so the D1 rows alone would
 * show no subscription. Built from the D1 rows, so both say the same plan, status and period end.
 */
export function localBillingObjects(subs: DemoSubscription[]) {
  return subs.flatMap((sub) => [
    { id: sub.customerId, kind: "customer" as const, data: { id: sub.customerId, email: sub.email.toLowerCase(), name: sub.name } },
    {
      id: sub.id,
      kind: "subscription" as const,
      data: {
        id: sub.id,
        customer: sub.customerId,
        status: sub.status,
        cancel_at_period_end: false,
        trial_end: null,
        current_period_end: Math.floor(Date.parse(sub.currentPeriodEnd) / 1000),
        price: {
          id: DEMO_PRICE.id,
          unit_amount: DEMO_PRICE.unitAmount,
          currency: DEMO_PRICE.currency,
          interval: DEMO_PRICE.interval,
          product: { id: DEMO_PRICE.productId, name: DEMO_PRICE.productName },
        },
      },
    },
  ]);
}

export function buildSeed(options: SeedOptions = {}) {
  const seed = options.seed ?? SEED_DEFAULTS.seed;
  const days = options.days ?? SEED_DEFAULTS.days;
  const calls = options.calls ?? SEED_DEFAULTS.calls;
  const now = options.now ?? new Date();
  if (!Number.isInteger(days) || days < 1) throw new RangeError("days must be a whole number of at least 1");
  if (!Number.isInteger(calls) || calls < 0) throw new RangeError("calls must be a whole number of at least 0");
  const nowMs = now.getTime();
  const counts = {
    callLogs: calls,
    aircallCalls: options.counts?.aircallCalls ?? Math.round(calls * SEED_RATIOS.aircallCalls),
    appointments: options.counts?.appointments ?? Math.round(calls * SEED_RATIOS.appointments),
    leads: options.counts?.leads ?? Math.round(calls * SEED_RATIOS.leads),
  };

  const today = nyToday(now);
  const past = planDays(addDays(today, -(days - 1)), today, nowMs);
  const withAhead = planDays(addDays(today, -(days - 1)), addDays(today, APPOINTMENT_DAYS_AHEAD), nowMs);
  const nowIso = now.toISOString();
  const accountsSince = nyLocalToUtc(addDays(today, -days - 1), 10).toISOString();

  // ---- accounts
  const rng = Rng.for(seed, "accounts");
  const shardOf = demoShards(options.shards ?? []);
  const admin = makeProfile(
    rng,
    { email: DEMO_EMAILS.admin, username: "admin", company: "Voice Agent Ops", firstName: "Alex", lastName: "Morgan" },
    { isAdmin: true, shard: shardOf.admin, createdAt: accountsSince, updatedAt: accountsSince },
  );
  const staff = makeProfile(
    rng,
    { email: DEMO_EMAILS.staff, username: "storeops", company: `${BRAND}s`, firstName: "Jordan", lastName: "Rivera" },
    { shopwindowsInfo: true, callApp: true, shard: shardOf.staff, createdAt: accountsSince, updatedAt: accountsSince },
  );
  const customer = makeProfile(
    rng,
    { email: DEMO_EMAILS.customer, username: "sunrise", company: "Sunrise Family Dental", firstName: "Casey", lastName: "Lee" },
    { shard: shardOf.customer, createdAt: accountsSince, updatedAt: accountsSince },
  );
  const profiles: ProfileRow[] = [admin, staff, customer];

  // ---- agents and their numbers (ids fixed up front so both sides of the link are known)
  let agentId = options.firstIds?.agent ?? 1;
  let numberId = options.firstIds?.phoneNumber ?? 1;
  const agents: AgentRow[] = [];
  const phoneNumbers: PhoneNumberRow[] = [];
  const taken = new Set<string>();
  const addNumber = (input: Parameters<typeof makePhoneNumber>[1]) => {
    let row: PhoneNumberRow;
    do row = makePhoneNumber(rng, input, { id: numberId, createdAt: accountsSince, updatedAt: accountsSince });
    while (taken.has(row.phoneNumber));
    taken.add(row.phoneNumber);
    numberId++;
    phoneNumbers.push(row);
    return row;
  };
  const addAgent = (input: Parameters<typeof makeAgent>[1], extra: Partial<AgentRow> = {}, withNumber = true) => {
    const agent = makeAgent(rng, input, { id: agentId++, createdAt: accountsSince, updatedAt: accountsSince, ...extra });
    if (withNumber) {
      const num = addNumber({ userId: input.userId, store: input.store, areaCode: "512", agent: { id: agent.id!, name: agent.name } });
      agent.twilioNumberId = num.id;
      agent.assignedPhoneNumber = num.phoneNumber;
    }
    agents.push(agent);
    return agent;
  };
  for (const store of STORES) {
    addAgent({ userId: staff.id, store, type: "inbound", active: true });
    // Outbound agents call from the platform's default number, so a store holds one number and the
    // chain sits exactly at the default limit of 9. One is left inactive, so Activate has something to do.
    addAgent({ userId: staff.id, store, type: "outbound", active: store !== "TYLER" }, {}, false);
  }
  addAgent({ userId: customer.id, type: "inbound", active: true, company: customer.company! });
  // Incomplete: no instructions yet, so the card shows 'Agent configuration incomplete'.
  addAgent({ userId: customer.id, type: "outbound", active: false, company: customer.company! }, { agentInstructions: "" }, false);
  addNumber({ userId: customer.id, areaCode: "512", agent: null });
  const simAssistants: SimAssistantRow[] = agents.filter((a) => a.vapiAssistantId).map(makeSimAssistant);

  // ---- customers shared by call logs and appointments, so appointment analysis finds matching calls
  const poolSize = Math.max(40, Math.round(calls / STORES.length / 3));
  const customerOf = (store: Store | null, k: number): Customer =>
    makeCustomer(Rng.for(seed, `customer:${store ?? "-"}:${k}`), store);

  const callingAgents = picker(
    agents
      .filter((a) => a.vapiAssistantId)
      .map((a) => ({
        item: { ...a, company: a.store ? undefined : (customer.company ?? undefined) },
        weight:
          a.userId === customer.id
            ? CUSTOMER_CALL_SHARE * STORES.length
            : (1 - CUSTOMER_CALL_SHARE) * STORE_WEIGHT[a.store as Store] * (a.type === "inbound" ? 1.2 : 1),
      })),
  );
  const storePicker = picker(STORES.map((s) => ({ item: s, weight: STORE_WEIGHT[s] })));

  function* callLogRows(): Generator<CallLogRow> {
    const r = Rng.for(seed, "call_logs");
    const perDay = allocate(calls, past.map((d) => CALL_WEEKDAY[d.weekday] * d.elapsed));
    for (let d = 0; d < past.length; d++) {
      for (let k = 0; k < perDay[d]; k++) {
        const agent = callingAgents(r);
        const who = customerOf((agent.store as Store | null) ?? null, r.int(0, poolSize - 1));
        yield makeCallLog(r, { userId: agent.userId, agent, window: past[d].open, nowMs, customer: who });
      }
    }
  }

  function* aircallRows(): Generator<AircallCallRow> {
    const r = Rng.for(seed, "aircall_calls");
    const perDay = allocate(counts.aircallCalls, past.map((d) => CENTRE_WEEKDAY[d.weekday] * d.elapsed));
    let seq = 0;
    for (let d = 0; d < past.length; d++) {
      for (let k = 0; k < perDay[d]; k++) {
        yield makeAircallCall(r, { seq: seq++, window: past[d].open, store: storePicker(r) });
      }
    }
  }

  function* appointmentRows(): Generator<AppointmentRow> {
    const r = Rng.for(seed, "appointments");
    const perDay = allocate(counts.appointments, withAhead.map((d) => STORE_DAY_WEEKDAY[d.weekday]));
    let seq = 0;
    for (let d = 0; d < withAhead.length; d++) {
      // Appointments fill the whole of today's opening hours, past and upcoming alike.
      const day = withAhead[d];
      const window = { fromMs: nyLocalToUtc(day.date, 9).getTime(), toMs: nyLocalToUtc(day.date, 18).getTime() };
      for (let k = 0; k < perDay[d]; k++) {
        const store = storePicker(r);
        // Half are people the agents also spoke with.
        const who = r.chance(0.5) ? customerOf(store, r.int(0, poolSize - 1)) : undefined;
        yield makeAppointment(r, { seq: seq++, window, nowMs, store, customer: who });
      }
    }
  }

  function* leadRows(): Generator<LeadRow> {
    const r = Rng.for(seed, "leads");
    const perDay = allocate(counts.leads, past.map((d) => LEAD_WEEKDAY[d.weekday] * d.wholeElapsed));
    let seq = 0;
    for (let d = 0; d < past.length; d++) {
      for (let k = 0; k < perDay[d]; k++) yield makeLead(r, { seq: seq++, window: past[d].whole, store: storePicker(r) });
    }
  }

  // The demo accounts are on the pro plan (annual), as the billing webhooks would have written it, so
  // the paid features (activation, numbers, test calls) work in the demo.
  const periodEnd = new Date(Date.parse(nowIso) + 365 * 86_400_000).toISOString();
  const subscriptions = profiles.map((p) => ({
    id: demoSubscriptionId(p.email),
    userId: p.id,
    customerId: demoCustomerId(p.email),
    priceId: DEMO_PRICE.id,
    productName: DEMO_PRICE.productName,
    status: "active",
    interval: DEMO_PRICE.interval,
    unitAmount: DEMO_PRICE.unitAmount,
    currency: DEMO_PRICE.currency,
    currentPeriodEnd: periodEnd,
  }));
  const customers = subscriptions.map((sub, i) => ({
    userId: sub.userId,
    email: profiles[i].email,
    company: profiles[i].company ?? null,
    currentPlan: "pro",
    stripeCustomerId: sub.customerId,
    subscriptionId: sub.id,
    subscriptionStatus: "active",
  }));

  return {
    options: { seed, days, calls, now: nowIso },
    counts,
    profiles,
    subscriptions,
    customers,
    /** The same customers and subscriptions at the local billing provider (see localBillingObjects). */
    billingObjects: localBillingObjects(
      subscriptions.map((sub, i) => ({ ...sub, email: profiles[i].email, name: `${profiles[i].firstName} ${profiles[i].lastName}` })),
    ),
    /**
     * Local identity rows of the demo accounts. Password hashes are computed by the caller (salted
     * PBKDF2, see worker/lib/crypto.ts): one for all, or one per email.
     */
    authUsers(passwordHash: string | Readonly<Record<string, string>>): AuthUserRow[] {
      return profiles.map((p) => {
        const hash = typeof passwordHash === "string" ? passwordHash : passwordHash[p.email];
        if (!hash) throw new Error(`no password hash for ${p.email}`);
        return makeAuthUser(p, hash, accountsSince);
      });
    },
    phoneNumbers,
    agents,
    simAssistants,
    callLogChunks: (size: number) => chunked(callLogRows(), size),
    aircallCallChunks: (size: number) => chunked(aircallRows(), size),
    appointmentChunks: (size: number) => chunked(appointmentRows(), size),
    leadChunks: (size: number) => chunked(leadRows(), size),
  };
}

export type Seed = ReturnType<typeof buildSeed>;
