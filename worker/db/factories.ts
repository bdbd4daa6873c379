// Row factories shared by the seed (`npm run seed`) and the worker tests.
// Pure: no database, no clock, no Math.random. Every value comes from a seeded PRNG and the
// caller's context (time windows, owner ids), so the same seed always gives the same rows.
// Relative imports carry `.ts` because the seed script loads this file in plain Node through tsx.
import type {
  agents,
  aircallCalls,
  appointments,
  authUsers,
  callLogs,
  leads,
  phoneNumbers,
  profiles,
  simAssistants,
} from "./schema.ts";
import { fnv1a32, mulberry32 } from "../lib/random.ts";
import { type AppointmentStatus, DEFAULT_VOICE_ID, LEAD_INTEREST_LEVEL, STORE_NUMBER_NAMES, STORES, type Store } from "../../shared/constants.ts";

export type ProfileRow = typeof profiles.$inferInsert;
export type AuthUserRow = typeof authUsers.$inferInsert;
export type AgentRow = typeof agents.$inferInsert;
export type PhoneNumberRow = typeof phoneNumbers.$inferInsert;
export type CallLogRow = typeof callLogs.$inferInsert;
export type AircallCallRow = typeof aircallCalls.$inferInsert;
export type AppointmentRow = typeof appointments.$inferInsert;
export type LeadRow = typeof leads.$inferInsert;
export type SimAssistantRow = typeof simAssistants.$inferInsert;

// ---------------------------------------------------------------- randomness

export { mulberry32 };

/** A seed for an independent stream (per table, per customer), so adding rows to one never shifts another. */
export function deriveSeed(seed: number, label: string): number {
  let h = fnv1a32(label, (0x811c9dc5 ^ seed) >>> 0);
  // murmur3's finaliser spreads neighbouring labels apart.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  static for(seed: number, label: string) {
    return new Rng(deriveSeed(seed, label));
  }
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Picks a key by weight: `{ a: 3, b: 1 }` gives 'a' three times in four. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1][0];
  }
  hex(chars: number): string {
    let s = "";
    while (s.length < chars) s += Math.floor(this.next() * 0x10000).toString(16).padStart(4, "0");
    return s.slice(0, chars);
  }
  /** A version-4-shaped UUID drawn from this stream. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

// ---------------------------------------------------------------- places and people

export interface StorePlace {
  /** Name used in agent names and call summaries ("Miami", "Woodlands"). */
  label: string;
  /** Telephony locality of the store's numbers ("The Woodlands"). */
  locality: string;
  region: string;
  areaCodes: readonly string[];
}

/** Each store's city, state and local area codes; numbers bought for a store are local to it. */
export const STORE_PLACES: Record<Store, StorePlace> = {
  IOWA: { label: "Iowa City", locality: "Iowa City", region: "IA", areaCodes: ["319"] },
  LARGO: { label: "Largo", locality: "Largo", region: "FL", areaCodes: ["727"] },
  MIAMI: { label: "Miami", locality: "Miami", region: "FL", areaCodes: ["305"] },
  NAPLES: { label: "Naples", locality: "Naples", region: "FL", areaCodes: ["239"] },
  PEMBROKE: { label: "Pembroke Pines", locality: "Pembroke Pines", region: "FL", areaCodes: ["954"] },
  TULSA: { label: "Tulsa", locality: "Tulsa", region: "OK", areaCodes: ["918"] },
  TYLER: { label: "Tyler", locality: "Tyler", region: "TX", areaCodes: ["903"] },
  WOODLANDS: { label: "Woodlands", locality: "The Woodlands", region: "TX", areaCodes: ["281", "832"] },
  OKC: { label: "Oklahoma City", locality: "Oklahoma City", region: "OK", areaCodes: ["405"] },
};

export const BRAND = "Vision & Hearing Center";

const FIRST_NAMES = [
  "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
  "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Karen", "Carlos", "Sarah",
  "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Sandra", "Mark", "Ashley", "Luis", "Emily",
  "Steven", "Donna", "Andrew", "Michelle", "Kevin", "Carol", "Brian", "Amanda", "Jose", "Melissa",
  "Maria", "Juan", "Gloria", "Wei", "Priya", "Ahmed", "Fatima", "Hiroshi", "Grace", "Tyrone",
] as const;
const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
  "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Patel",
] as const;

/** Call-centre staff who place and take the store network's Aircall calls. */
export const CALL_CENTRE_STAFF = [
  "Maria Lopez", "James Carter", "Aisha Thompson", "Daniel Kim", "Sofia Martinez", "Ethan Brooks", "Olivia Nguyen", "Marcus Reed",
] as const;

/** The appointment types of the demo store network, with how often each is booked. */
const APPOINTMENT_TYPE_WEIGHTS = { "Eye Exam": 40, "Hearing Test": 25, Consultation: 20, "Virtual Consultation": 15 } as const;
export const APPOINTMENT_TYPES = Object.keys(APPOINTMENT_TYPE_WEIGHTS) as (keyof typeof APPOINTMENT_TYPE_WEIGHTS)[];
export const ENDED_REASONS = [
  "customer-ended-call",
  "assistant-ended-call",
  "voicemail",
  "assistant-forwarded-call",
  "customer-did-not-answer",
  "customer-busy",
  "silence-timed-out",
] as const;
export type EndedReason = (typeof ENDED_REASONS)[number];

/** A US number in E.164: '+1', the area code, an exchange that is neither N11 nor 555, four digits. */
export function usPhone(rng: Rng, areaCode: string): string {
  let exchange: string;
  do exchange = String(rng.int(200, 999));
  while (exchange.endsWith("11") || exchange === "555");
  return `+1${areaCode}${exchange}${String(rng.int(0, 9999)).padStart(4, "0")}`;
}

/** Twilio's friendly form: '(305) 555-0123'. */
export const friendlyPhone = (e164: string) => e164.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, "($1) $2-$3");

export interface Customer {
  firstName: string;
  lastName: string;
  phone: string;
}

/** A person who calls or is called; the seed draws the same customer for calls and appointments so they match. */
export function makeCustomer(rng: Rng, store?: Store | null): Customer {
  const areaCodes = store ? STORE_PLACES[store].areaCodes : ["212", "305", "312", "404", "512", "602", "713", "813"];
  return { firstName: rng.pick(FIRST_NAMES), lastName: rng.pick(LAST_NAMES), phone: usPhone(rng, rng.pick(areaCodes)) };
}

// ---------------------------------------------------------------- time

/** Half-open interval of epoch milliseconds. */
export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const within = (rng: Rng, w: TimeWindow) => w.fromMs + Math.floor(rng.next() * Math.max(0, w.toMs - w.fromMs));
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
function slotTime(rng: Rng): string {
  const h = rng.int(9, 17);
  const m = rng.chance(0.5) ? "00" : "30";
  return `${h > 12 ? h - 12 : h}:${m} ${h >= 12 ? "PM" : "AM"}`;
}

// ---------------------------------------------------------------- accounts

export interface ProfileInput {
  email: string;
  username?: string;
  company?: string;
  firstName?: string;
  lastName?: string;
}

export function makeProfile(rng: Rng, input: ProfileInput, overrides: Partial<ProfileRow> = {}): ProfileRow {
  const first = input.firstName ?? rng.pick(FIRST_NAMES);
  const last = input.lastName ?? rng.pick(LAST_NAMES);
  return {
    id: rng.uuid(),
    email: input.email.toLowerCase(),
    username: input.username ?? `${first}${last}`.toLowerCase(),
    company: input.company ?? `${last} & Co`,
    firstName: first,
    lastName: last,
    isAdmin: false,
    shopwindowsInfo: false,
    callApp: false,
    ...overrides,
  };
}

/**
 * The local identity row of a profile. `passwordHash` is computed by the caller (PBKDF2 is slow and
 * salted, so it cannot come from a pure, deterministic factory); flags go to app_metadata, as the
 * identity provider would hold them.
 */
export function makeAuthUser(profile: ProfileRow, passwordHash: string, confirmedAt: string, overrides: Partial<AuthUserRow> = {}): AuthUserRow {
  const appMetadata: Record<string, unknown> = {};
  if (profile.isAdmin) appMetadata.is_admin = true;
  if (profile.shopwindowsInfo) appMetadata.shopwindows_info = true;
  if (profile.callApp) appMetadata.call_app = true;
  return {
    id: profile.id,
    email: profile.email,
    passwordHash,
    emailConfirmedAt: confirmedAt,
    userMetadata: { username: profile.username, name: profile.username, company: profile.company, first_name: profile.firstName, last_name: profile.lastName },
    appMetadata,
    createdAt: confirmedAt,
    updatedAt: confirmedAt,
    ...overrides,
  };
}

// ---------------------------------------------------------------- agents and numbers

export type AgentType = "inbound" | "outbound";

export interface AgentInput {
  userId: string;
  store?: Store | null;
  type?: AgentType;
  /** Active agents have an assistant on the voice platform. */
  active?: boolean;
  /** Business name for agents outside the store network. */
  company?: string;
}

function agentTexts(store: Store | null, type: AgentType, company: string) {
  if (!store) {
    return {
      name: type === "inbound" ? "Front Desk Assistant" : "Appointment Reminder Caller",
      businessDescription: `${company} is a family practice that offers check-ups, cleanings and same-week appointments for new and returning patients.`,
      services: "Routine check-ups, cleanings, consultations for new patients, appointment booking and rescheduling.",
      agentInstructions:
        type === "inbound"
          ? "Greet callers by the practice name, answer questions about hours and services, and book or move appointments. Offer a callback when you cannot help."
          : "Call patients the day before their appointment, confirm the time, and offer the next free slot if they need to reschedule.",
      pricingInformation: "New-patient consultations are free; check-ups are billed to insurance.",
    };
  }
  const place = STORE_PLACES[store];
  return {
    name: type === "inbound" ? `${place.label} Inbound Receptionist` : `${place.label} Outbound Scheduler`,
    businessDescription: `The ${BRAND} in ${place.locality}, ${place.region} provides eye exams, hearing tests, glasses, contact lenses and hearing aids for the whole family.`,
    services: "Comprehensive eye exams, contact lens fittings, hearing tests, hearing aid fittings and repairs, and virtual consultations.",
    agentInstructions:
      type === "inbound"
        ? `Answer calls for the ${place.label} store warmly. Answer questions about hours, insurance and services, book, move or cancel appointments, and transfer the caller to store staff when they ask for a person.`
        : `Call customers who asked to be contacted or missed an appointment, offer the next open eye exam or hearing test at the ${place.label} store, and confirm the booking before ending the call.`,
    pricingInformation: "Eye exams from $89. Hearing tests are free. Frames from $99; most vision insurance plans accepted.",
  };
}

/** The prompt the local prompt writer would produce from the agent's fields. */
export function agentPrompt(a: Pick<AgentRow, "name" | "businessDescription" | "services" | "agentInstructions">): string {
  return [
    `You are ${a.name}, an AI phone agent.`,
    `About the business: ${a.businessDescription}`,
    `Services: ${a.services}`,
    `Instructions: ${a.agentInstructions}`,
    "Be brief and friendly, confirm names, dates and times back to the caller, and never invent prices or availability.",
  ].join("\n\n");
}

export function makeAgent(rng: Rng, input: AgentInput, overrides: Partial<AgentRow> = {}): AgentRow {
  const store = input.store ?? null;
  const type = input.type ?? "inbound";
  const texts = agentTexts(store, type, input.company ?? "Sunrise Family Dental");
  const active = input.active ?? true;
  const row: AgentRow = {
    userId: input.userId,
    ...texts,
    documents: "",
    prompt: null,
    voiceId: DEFAULT_VOICE_ID,
    vapiAssistantId: active ? rng.uuid() : null,
    store,
    type,
    twilioNumberId: null,
    assignedPhoneNumber: null,
    ...overrides,
  };
  if (active && row.prompt == null) row.prompt = agentPrompt(row);
  return row;
}

/** The local voice simulator's copy of an active agent's assistant, so activate/deactivate work on seeded agents. */
export function makeSimAssistant(agent: AgentRow): SimAssistantRow {
  if (!agent.vapiAssistantId) throw new Error(`agent ${agent.name} has no assistant`);
  return {
    id: agent.vapiAssistantId,
    ownerId: agent.userId,
    name: agent.name,
    prompt: agent.prompt ?? agentPrompt(agent),
    voiceId: agent.voiceId ?? DEFAULT_VOICE_ID,
  };
}

export interface PhoneNumberInput {
  userId: string | null;
  store?: Store | null;
  /** Area code for numbers outside the store network. */
  areaCode?: string;
  agent?: { id: number; name: string } | null;
}

const AREA_PLACES: Record<string, { locality: string; region: string }> = {
  "212": { locality: "New York", region: "NY" },
  "312": { locality: "Chicago", region: "IL" },
  "512": { locality: "Austin", region: "TX" },
};

export function makePhoneNumber(rng: Rng, input: PhoneNumberInput, overrides: Partial<PhoneNumberRow> = {}): PhoneNumberRow {
  const store = input.store ?? null;
  const areaCode = store ? rng.pick(STORE_PLACES[store].areaCodes) : (input.areaCode ?? "512");
  const place = store ? STORE_PLACES[store] : (AREA_PLACES[areaCode] ?? { locality: null, region: null });
  const number = usPhone(rng, areaCode);
  return {
    userId: input.userId,
    phoneNumber: number,
    friendlyName: friendlyPhone(number),
    locality: place.locality,
    region: place.region,
    isoCountry: "US",
    sid: `PN${rng.hex(32)}`,
    vapiPhoneNumberId: rng.uuid(),
    agentId: input.agent?.id ?? null,
    status: "active",
    name: input.agent?.name ?? (store ? `${STORE_PLACES[store].label} main line` : null),
    ...overrides,
  };
}

// ---------------------------------------------------------------- call logs

export interface CallLogInput {
  userId: string | null;
  agent: Pick<AgentRow, "id" | "vapiAssistantId" | "store" | "type"> & { company?: string };
  /** The call starts at a uniform instant in this window. */
  window: TimeWindow;
  /** A call still running at this instant is 'in-progress' (or 'queued' if it has not been answered). */
  nowMs?: number;
  customer?: Customer;
}

type Outcome =
  | "booked" | "rescheduled" | "hours" | "pricing" | "cancelled" | "insurance" | "order"
  | "forwarded" | "silence" | "voicemail" | "no-answer" | "busy"
  | "declined" | "callback" | "confirmed";

const INBOUND_OUTCOMES = {
  booked: 30, rescheduled: 9, hours: 12, pricing: 8, cancelled: 5, insurance: 7, order: 7, forwarded: 14, silence: 4,
} as const satisfies Partial<Record<Outcome, number>>;
const OUTBOUND_OUTCOMES = {
  booked: 18, confirmed: 10, declined: 9, callback: 7, forwarded: 4, silence: 3, voicemail: 24, "no-answer": 20, busy: 5,
} as const satisfies Partial<Record<Outcome, number>>;
const OUTCOME_REASON: Record<Outcome, (rng: Rng) => EndedReason> = {
  booked: (r) => (r.chance(0.6) ? "assistant-ended-call" : "customer-ended-call"),
  rescheduled: (r) => (r.chance(0.6) ? "assistant-ended-call" : "customer-ended-call"),
  confirmed: (r) => (r.chance(0.6) ? "assistant-ended-call" : "customer-ended-call"),
  hours: () => "customer-ended-call",
  pricing: () => "customer-ended-call",
  cancelled: () => "customer-ended-call",
  insurance: () => "customer-ended-call",
  order: () => "customer-ended-call",
  declined: () => "customer-ended-call",
  callback: (r) => (r.chance(0.5) ? "assistant-ended-call" : "customer-ended-call"),
  forwarded: () => "assistant-forwarded-call",
  silence: () => "silence-timed-out",
  voicemail: () => "voicemail",
  "no-answer": () => "customer-did-not-answer",
  busy: () => "customer-busy",
};
const OUTCOME_SECONDS: Record<Outcome, [number, number]> = {
  booked: [110, 420], rescheduled: [90, 300], confirmed: [45, 150], hours: [35, 140], pricing: [60, 240],
  cancelled: [40, 150], insurance: [60, 210], order: [40, 120], declined: [25, 90], callback: [30, 100],
  forwarded: [30, 150], silence: [12, 40], voicemail: [18, 45], "no-answer": [0, 0], busy: [0, 0],
};

interface Talk {
  place: string;
  brand: string;
  service: string;
  day: string;
  time: string;
  c: Customer;
}

function talkFor(rng: Rng, store: Store | null, company: string | undefined, c: Customer): Talk {
  const storeLike = store != null;
  return {
    place: storeLike ? `the ${STORE_PLACES[store].label} store` : "the office",
    brand: storeLike ? `${BRAND} ${STORE_PLACES[store].label}` : (company ?? "Sunrise Family Dental"),
    service: storeLike ? rng.pick(["eye exam", "hearing test", "contact lens fitting", "consultation"]) : rng.pick(["cleaning", "check-up", "consultation"]),
    day: rng.pick(WEEKDAYS),
    time: slotTime(rng),
    c,
  };
}

function summaryOf(o: Outcome, t: Talk, inbound: boolean): string | null {
  const who = inbound ? "The caller" : "The customer";
  switch (o) {
    case "booked":
      return inbound
        ? `The caller booked a ${t.service} at ${t.place} for ${t.day} at ${t.time}.`
        : `The customer agreed to a ${t.service} at ${t.place} on ${t.day} at ${t.time}.`;
    case "rescheduled":
      return `${who} moved their ${t.service} at ${t.place} to ${t.day} at ${t.time}.`;
    case "confirmed":
      return `The customer confirmed their ${t.service} at ${t.place} for ${t.day} at ${t.time}.`;
    case "hours":
      return `The caller asked about opening hours at ${t.place} and was told it is open 9 AM to 6 PM, Monday to Saturday.`;
    case "pricing":
      return `${who} asked what a ${t.service} costs and said they would call back to book.`;
    case "cancelled":
      return `${who} cancelled their ${t.service} at ${t.place} and did not rebook.`;
    case "insurance":
      return `${who} asked whether their insurance is accepted and was told to bring their card to the appointment.`;
    case "order":
      return `The caller checked on their order and was told it is ready for pickup at ${t.place}.`;
    case "declined":
      return "The customer said they are not interested in booking right now.";
    case "callback":
      return "The customer asked to be called back later in the week.";
    case "forwarded":
      return `${who} asked to speak with a person and was transferred to ${t.place}.`;
    case "silence":
      return "The call ended after the other party stayed silent.";
    case "voicemail":
      return `The call reached voicemail and the assistant left a message about booking a ${t.service}.`;
    case "no-answer":
    case "busy":
      return null;
  }
}

function transcriptOf(o: Outcome, t: Talk, inbound: boolean): string | null {
  const greet = inbound
    ? `AI: Thank you for calling ${t.brand}. How can I help you today?`
    : `AI: Hi, this is the virtual assistant from ${t.brand}. Am I speaking with ${t.c.firstName}?`;
  const lines: string[] = [greet];
  const human = (s: string) => lines.push(`Human: ${s}`);
  const ai = (s: string) => lines.push(`AI: ${s}`);
  if (!inbound && o !== "voicemail" && o !== "silence") human(`Yes, this is ${t.c.firstName}.`);
  switch (o) {
    case "booked":
    case "confirmed":
    case "rescheduled":
      if (inbound) human(o === "rescheduled" ? `I need to move my ${t.service}.` : `I'd like to book a ${t.service}.`);
      else ai(o === "confirmed" ? `I'm calling to confirm your ${t.service} on ${t.day} at ${t.time}.` : `We have openings for a ${t.service} at ${t.place} this week. Would you like one?`);
      if (o !== "confirmed") {
        if (!inbound) human("Sure, what do you have?");
        ai(`I have ${t.day} at ${t.time}. Does that work for you?`);
      }
      human(o === "confirmed" ? "Yes, I'll be there." : "Yes, that works.");
      ai(`Great, ${t.c.firstName}. You're all set for ${t.day} at ${t.time} at ${t.place}. Anything else I can help with?`);
      human("No, that's all. Thank you.");
      ai("You're welcome. Have a great day!");
      break;
    case "hours":
      human("What time are you open today?");
      ai("We're open 9 AM to 6 PM, Monday to Saturday.");
      human("Perfect, thanks.");
      break;
    case "pricing":
      human(`How much is a ${t.service}?`);
      ai("It depends on your insurance. I can book you in and the store will confirm the price beforehand.");
      human("Let me check and call you back.");
      ai("Of course. Talk soon!");
      break;
    case "cancelled":
      human(`I need to cancel my ${t.service}.`);
      ai("I've cancelled it. Would you like to book another time?");
      human("Not right now, thanks.");
      break;
    case "insurance":
      human("Do you take my insurance?");
      ai("We accept most plans. Please bring your card and we'll check it at the appointment.");
      human("Okay, thank you.");
      break;
    case "order":
      human("I'm calling to check whether my order is ready.");
      ai(`It's ready for pickup at ${t.place}.`);
      human("Great, I'll come by tomorrow.");
      break;
    case "declined":
      ai(`We have openings for a ${t.service} at ${t.place} this week. Would you like one?`);
      human("No thanks, not right now.");
      ai("No problem. Have a good day!");
      break;
    case "callback":
      ai(`Is now a good time to talk about scheduling your ${t.service}?`);
      human("Can you call me back later this week?");
      ai("Of course. We'll call you back. Goodbye!");
      break;
    case "forwarded":
      if (!inbound) ai(`I'm calling about your ${t.service} at ${t.place}.`);
      human("Can I speak with someone at the store?");
      ai("Certainly, let me transfer you now.");
      break;
    case "silence":
      ai("Hello? Are you still there?");
      ai("I'm not hearing anything, so I'll end the call. Goodbye.");
      break;
    case "voicemail":
      ai(`Hi ${t.c.firstName}, this is ${t.brand}. We'd love to help you book a ${t.service}. Please call us back at your convenience. Thank you!`);
      break;
    case "no-answer":
    case "busy":
      return null;
  }
  return lines.join("\n");
}

export function makeCallLog(rng: Rng, input: CallLogInput, overrides: Partial<CallLogRow> = {}): CallLogRow {
  const { agent } = input;
  const store = (agent.store as Store | null | undefined) ?? null;
  const web = rng.chance(0.02);
  const inbound = web || agent.type !== "outbound";
  const direction = web ? "web" : inbound ? "inbound" : "outbound";
  const customer = input.customer ?? makeCustomer(rng, store);
  const outcome: Outcome = inbound ? rng.weighted(INBOUND_OUTCOMES) : rng.weighted(OUTBOUND_OUTCOMES);
  const [minS, maxS] = OUTCOME_SECONDS[outcome];
  const duration = rng.int(minS, maxS);
  const startMs = within(rng, input.window);
  const talk = talkFor(rng, store, agent.company, customer);

  let status = rng.chance(0.8) ? "ended" : "completed";
  let endedReason: string | null = OUTCOME_REASON[outcome](rng);
  let endMs: number | null = startMs + Math.max(duration, 1) * 1000;
  let seconds = duration;
  let summary = summaryOf(outcome, talk, inbound);
  let transcript = transcriptOf(outcome, talk, inbound);
  if (input.nowMs !== undefined && endMs > input.nowMs) {
    // Still running at `now`: nothing is known about how it ends yet.
    status = !inbound && input.nowMs - startMs < 20_000 ? "queued" : "in-progress";
    endedReason = null;
    endMs = null;
    seconds = 0;
    summary = null;
    transcript = null;
  }
  const ratePerMinute = 0.07 + rng.next() * 0.05;
  const startTime = iso(startMs);
  const endTime = endMs === null ? null : iso(endMs);
  return {
    userId: input.userId,
    callId: rng.uuid(),
    agentId: agent.id ?? null,
    assistantId: agent.vapiAssistantId ?? null,
    store,
    direction,
    phoneNumber: web ? null : customer.phone,
    status,
    endedReason,
    startTime,
    endTime,
    duration: seconds,
    summary,
    transcript,
    recordingUrl: null,
    cost: round((seconds / 60) * ratePerMinute, 4),
    createdAt: startTime,
    updatedAt: endTime ?? startTime,
    ...overrides,
  };
}

// ---------------------------------------------------------------- Aircall calls

export interface AircallCallInput {
  /** Unique per row within one database: Aircall ids are integers. */
  seq: number;
  window: TimeWindow;
  store?: Store;
}

const AIRCALL_ID_BASE = 1_800_000_000;

export function makeAircallCall(rng: Rng, input: AircallCallInput, overrides: Partial<AircallCallRow> = {}): AircallCallRow {
  const store = input.store ?? rng.pick(STORES);
  const direction = rng.chance(0.55) ? "outbound" : "inbound";
  const answered = rng.chance(direction === "outbound" ? 0.48 : 0.8);
  const startMs = within(rng, input.window);
  const ringMs = rng.int(3, 25) * 1000;
  const talkS = answered ? rng.int(30, 540) : 0;
  const answeredMs = answered ? startMs + ringMs : null;
  const endMs = startMs + ringMs + talkS * 1000;
  return {
    aircallId: String(AIRCALL_ID_BASE + input.seq),
    direction,
    status: "done",
    answered,
    userName: direction === "outbound" || answered ? rng.pick(CALL_CENTRE_STAFF) : null,
    numberName: STORE_NUMBER_NAMES[store],
    store,
    transferredToStore: answered && rng.chance(direction === "inbound" ? 0.2 : 0.05),
    startedAt: iso(startMs),
    answeredAt: answeredMs === null ? null : iso(answeredMs),
    endedAt: iso(endMs),
    duration: Math.round((endMs - startMs) / 1000),
    createdAt: iso(endMs),
    ...overrides,
  };
}

// ---------------------------------------------------------------- Shopwindow appointments

export interface AppointmentInput {
  /** Unique per row within one database: Shopwindow ids. */
  seq: number;
  /** The appointment begins at a uniform instant in this window. */
  window: TimeWindow;
  /** Decides past (visited, sold, no show) from upcoming (scheduled); bookings are never after it. */
  nowMs: number;
  store?: Store;
  customer?: Customer;
}

const VIRTUAL_STATUS = { no_call: "No Show", no_answer: "No Show", answered: "Visited", purchased: "Sold" } as const;

export function makeAppointment(rng: Rng, input: AppointmentInput, overrides: Partial<AppointmentRow> = {}): AppointmentRow {
  const store = input.store ?? rng.pick(STORES);
  const customer = input.customer ?? makeCustomer(rng, store);
  const appointmentType = rng.weighted(APPOINTMENT_TYPE_WEIGHTS);
  const isVirtual = appointmentType === "Virtual Consultation";
  const bookingChannel = rng.weighted({ inbound: 35, outbound: 30, walk_in: 15, online: 20 });
  // Times on the half hour, like the booking calendar's slots.
  const beginMs = Math.floor(within(rng, input.window) / 1_800_000) * 1_800_000;
  const leadMs = bookingChannel === "walk_in" ? rng.int(0, 3) * 3_600_000 : rng.int(1, 21 * 24) * 3_600_000;
  // A booking is never in the future: one that would be is placed in the 21 days before now, as the
  // bookings of upcoming appointments are spread over the days before (not all made today).
  const lateBookingMs = input.nowMs - rng.int(5, 21 * 24 * 60) * 60_000;
  const bookedMs = beginMs - leadMs <= input.nowMs ? beginMs - leadMs : Math.min(beginMs, lateBookingMs);

  let status: AppointmentStatus;
  let virtualOutcome: AppointmentRow["virtualOutcome"] = null;
  if (beginMs > input.nowMs) {
    status = rng.chance(0.92) ? "Scheduled" : "Cancelled";
  } else if (isVirtual) {
    virtualOutcome = rng.weighted({ no_call: 15, no_answer: 25, answered: 40, purchased: 20 });
    status = VIRTUAL_STATUS[virtualOutcome];
  } else {
    status = rng.weighted({ Visited: 45, Sold: 25, "No Show": 18, Cancelled: 12 });
  }
  const sold = status === "Sold";
  const bookedBy =
    bookingChannel === "online"
      ? "Online Booking"
      : bookingChannel === "walk_in"
        ? `${STORE_PLACES[store].label} Front Desk`
        : rng.chance(0.3)
          ? bookingChannel === "inbound" ? "AI Receptionist" : "AI Outbound"
          : rng.pick(CALL_CENTRE_STAFF);
  return {
    externalId: `SW-${String(input.seq).padStart(9, "0")}`,
    store,
    beginUtc: iso(beginMs),
    bookedAt: iso(bookedMs),
    bookedBy,
    appointmentType,
    status,
    isVirtual,
    virtualOutcome,
    visited: status === "Visited" || sold,
    sold,
    bookingChannel,
    customerName: rng.chance(0.04) ? null : `${customer.firstName} ${customer.lastName}`,
    customerPhone: customer.phone,
    won: sold,
    createdAt: iso(bookedMs),
    updatedAt: iso(Math.min(Math.max(beginMs, bookedMs), input.nowMs)),
    ...overrides,
  };
}

// ---------------------------------------------------------------- leads

export interface LeadInput {
  seq: number;
  window: TimeWindow;
  store?: Store;
}

/**
 * A store lead, as the store network's systems push it (ingestion): its store's form on the store's
 * page or the website. Visitors' plan leads (the checkout's form) are in plan_leads, not here.
 */
export function makeLead(rng: Rng, input: LeadInput, overrides: Partial<LeadRow> = {}): LeadRow {
  const leadSource = rng.weighted({ store: 70, website: 30 });
  const store = input.store ?? rng.pick(STORES);
  const c = makeCustomer(rng, store);
  const submittedAt = iso(within(rng, input.window));
  const form = rng.pick(["Book an eye exam", "Free hearing test", "Contact the store"]);
  return {
    // From the sequence number, like appointments' Shopwindow ids: the same seed gives the same ids.
    externalId: `LD-${String(input.seq).padStart(9, "0")}`,
    store,
    email: `${c.firstName}.${c.lastName}${input.seq}@example.com`.toLowerCase(),
    // The lead form keeps 10 digits, no country code (docs/product/errors-and-texts.md#validation-messages).
    phone: c.phone.slice(2),
    firstName: c.firstName,
    lastName: c.lastName,
    company: null,
    leadSource,
    leadStatus: rng.weighted({ new: 60, contacted: 25, qualified: 10, lost: 5 }),
    interestLevel: LEAD_INTEREST_LEVEL,
    metadata: leadSource === "store" ? { form, page: `/locations/${store.toLowerCase()}` } : { form, page: "/contact" },
    submittedAt,
    createdAt: submittedAt,
    ...overrides,
  };
}
