// The single drizzle schema: every table of both spec documents.
// Columns are snake_case; timestamps are ISO-8601 UTC text; booleans are 0/1 integers.
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const updatedAt = () => text("updated_at").notNull().default(now);
const bool = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

/** Application profile; id equals the identity provider's user id. Flags mirror app_metadata. */
export const profiles = sqliteTable(
  "profiles",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    username: text("username"),
    company: text("company"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    isAdmin: bool("is_admin"),
    shopwindowsInfo: bool("shopwindows_info"),
    callApp: bool("call_app"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Not unique: an account deleted at the identity provider and registered again gets a new id.
  (t) => [index("profiles_email_idx").on(sql`lower(${t.email})`)],
);

/** Local identity service (used only when no Supabase project is configured). */
export const authUsers = sqliteTable(
  "auth_users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    emailConfirmedAt: text("email_confirmed_at"),
    userMetadata: text("user_metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    appMetadata: text("app_metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    lastSignInAt: text("last_sign_in_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("auth_users_email_uq").on(sql`lower(${t.email})`)],
);

export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => authUsers.id, { onDelete: "cascade" }),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

/** Refresh tokens are stored hashed; each use rotates to a new one (parent chain kept for reuse detection). */
export const authRefreshTokens = sqliteTable(
  "auth_refresh_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    sessionId: text("session_id").notNull().references(() => authSessions.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    revoked: bool("revoked"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("auth_refresh_tokens_hash_uq").on(t.tokenHash), index("auth_refresh_tokens_session_idx").on(t.sessionId)],
);

/** One-time tokens: email confirmation, account activation. Stored hashed. */
export const authOneTimeTokens = sqliteTable(
  "auth_one_time_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => authUsers.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["signup", "activation", "recovery"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    redirectTo: text("redirect_to"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("auth_ott_hash_uq").on(t.tokenHash), index("auth_ott_user_idx").on(t.userId, t.kind)],
);

/** Local mail outbox (what would have been emailed). */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    link: text("link"),
    kind: text("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.toEmail, t.id)],
);

export const phoneNumbers = sqliteTable(
  "phone_numbers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").references(() => profiles.id, { onDelete: "set null" }),
    phoneNumber: text("phone_number").notNull(),
    friendlyName: text("friendly_name"),
    locality: text("locality"),
    region: text("region"),
    isoCountry: text("iso_country").notNull().default("US"),
    sid: text("sid"),
    vapiPhoneNumberId: text("vapi_phone_number_id"),
    agentId: integer("agent_id"),
    status: text("status").notNull().default("active"),
    name: text("name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("phone_numbers_number_uq").on(t.phoneNumber),
    index("phone_numbers_user_idx").on(t.userId),
    // An agent holds at most one number.
    uniqueIndex("phone_numbers_agent_uq").on(t.agentId).where(sql`${t.agentId} is not null`),
  ],
);

export const agents = sqliteTable(
  "agents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull().references(() => profiles.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    businessDescription: text("business_description").notNull().default(""),
    services: text("services").notNull().default(""),
    agentInstructions: text("agent_instructions").notNull().default(""),
    pricingInformation: text("pricing_information").notNull().default(""),
    documents: text("documents").notNull().default(""),
    prompt: text("prompt"),
    voiceId: text("voice_id").notNull().default("marissa-11labs"),
    vapiAssistantId: text("vapi_assistant_id"),
    store: text("store"),
    type: text("type"),
    twilioNumberId: integer("twilio_number_id").references(() => phoneNumbers.id, { onDelete: "set null" }),
    assignedPhoneNumber: text("assigned_phone_number"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("agents_user_idx").on(t.userId, t.id),
    uniqueIndex("agents_user_name_uq").on(t.userId, sql`lower(${t.name})`),
    uniqueIndex("agents_assistant_uq").on(t.vapiAssistantId).where(sql`${t.vapiAssistantId} is not null`),
    // Foreign-key child column: inserting or deleting a phone number looks agents up by it.
    index("agents_twilio_number_idx").on(t.twilioNumberId),
  ],
);

/** Unified call log: voice-platform calls of an account's agents. */
export const callLogs = sqliteTable(
  "call_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").references(() => profiles.id, { onDelete: "cascade" }),
    callId: text("call_id").notNull(),
    agentId: integer("agent_id"),
    assistantId: text("assistant_id"),
    store: text("store"),
    direction: text("direction", { enum: ["inbound", "outbound", "web"] }).notNull(),
    phoneNumber: text("phone_number"),
    status: text("status").notNull(),
    endedReason: text("ended_reason"),
    startTime: text("start_time").notNull(),
    endTime: text("end_time"),
    duration: integer("duration").notNull().default(0),
    summary: text("summary"),
    transcript: text("transcript"),
    recordingUrl: text("recording_url"),
    cost: real("cost"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("call_logs_call_id_uq").on(t.callId),
    // (user_id, start_time, id) serves the keyset pages; duration makes it covering for the monthly
    // usage sum, which otherwise reads every call row of the month (measured: 250 ms -> 20 ms at 1M calls).
    index("call_logs_user_time_idx").on(t.userId, t.startTime, t.id, t.duration),
    index("call_logs_time_idx").on(t.startTime),
    index("call_logs_assistant_time_idx").on(t.assistantId, t.startTime),
    // The appointment analysis looks up the latest call to one number before a booking.
    index("call_logs_phone_time_idx").on(t.phoneNumber, t.startTime),
  ],
);

/** Call-centre (Aircall) calls of the store network. */
export const aircallCalls = sqliteTable(
  "aircall_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    aircallId: text("aircall_id").notNull(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    status: text("status").notNull(),
    answered: bool("answered"),
    userName: text("user_name"),
    numberName: text("number_name"),
    store: text("store"),
    transferredToStore: bool("transferred_to_store"),
    /** Name of the user, team or line Aircall last transferred the call to, as Aircall names it. */
    transferredTo: text("transferred_to"),
    startedAt: text("started_at").notNull(),
    answeredAt: text("answered_at"),
    endedAt: text("ended_at"),
    duration: integer("duration").notNull().default(0),
    /** When Aircall produced the newest state applied to this row (event timestamp, or backfill read time): older events only fill gaps. */
    lastEventAt: text("last_event_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("aircall_calls_aircall_id_uq").on(t.aircallId),
    index("aircall_calls_time_idx").on(t.startedAt),
    index("aircall_calls_number_time_idx").on(t.numberName, t.startedAt),
  ],
);

/** Shopwindow appointments of the store network. */
export const appointments = sqliteTable(
  "appointments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    externalId: text("external_id").notNull(),
    store: text("store").notNull(),
    beginUtc: text("begin_utc").notNull(),
    bookedAt: text("booked_at").notNull(),
    bookedBy: text("booked_by"),
    appointmentType: text("appointment_type").notNull(),
    status: text("status").notNull(),
    isVirtual: bool("is_virtual"),
    virtualOutcome: text("virtual_outcome", { enum: ["no_call", "no_answer", "answered", "purchased"] }),
    visited: bool("visited"),
    sold: bool("sold"),
    bookingChannel: text("booking_channel", { enum: ["inbound", "outbound", "walk_in", "online"] }),
    customerName: text("customer_name"),
    customerPhone: text("customer_phone"),
    won: bool("won"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("appointments_external_uq").on(t.externalId),
    index("appointments_begin_idx").on(t.beginUtc),
    index("appointments_store_begin_idx").on(t.store, t.beginUtc),
    index("appointments_booked_idx").on(t.bookedAt),
  ],
);

/** Leads: store-network lead submissions and plan-checkout leads. */
export const leads = sqliteTable(
  "leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The source system's id (Shopwindow lead id, seed id): ingestion upserts by it. */
    externalId: text("external_id").notNull(),
    store: text("store"),
    email: text("email"),
    phone: text("phone"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    company: text("company"),
    leadSource: text("lead_source").notNull(),
    leadStatus: text("lead_status").notNull().default("new"),
    interestLevel: integer("interest_level").notNull().default(4),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    submittedAt: text("submitted_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("leads_external_uq").on(t.externalId),
    index("leads_submitted_idx").on(t.submittedAt),
    index("leads_store_submitted_idx").on(t.store, t.submittedAt),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").references(() => profiles.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    company: text("company"),
    currentPlan: text("current_plan"),
    stripeCustomerId: text("stripe_customer_id"),
    subscriptionId: text("subscription_id"),
    subscriptionStatus: text("subscription_status"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("customers_email_uq").on(sql`lower(${t.email})`), index("customers_stripe_idx").on(t.stripeCustomerId)],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => profiles.id, { onDelete: "set null" }),
    customerId: text("customer_id").notNull(),
    priceId: text("price_id").notNull(),
    productName: text("product_name"),
    status: text("status").notNull(),
    interval: text("interval"),
    unitAmount: integer("unit_amount"),
    currency: text("currency").notNull().default("usd"),
    trialEnd: text("trial_end"),
    currentPeriodEnd: text("current_period_end"),
    cancelAtPeriodEnd: bool("cancel_at_period_end"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_customer_idx").on(t.customerId), index("subscriptions_user_idx").on(t.userId)],
);

/** Every accepted webhook event, stored once by its id in the same batch as its effects. */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    eventType: text("event_type").notNull(),
    receivedAt: createdAt(),
  },
);

export const systemConfig = sqliteTable("system_config", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});

/** Per-day (America/New_York), per-store, per-agent counts written by the roll-up job. */
export const dailyRollups = sqliteTable(
  "daily_rollups",
  {
    metric: text("metric").notNull(),
    day: text("day").notNull(),
    store: text("store").notNull().default(""),
    agentKey: text("agent_key").notNull().default(""),
    value: integer("value").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.metric, t.day, t.store, t.agentKey] })],
);

/**
 * New York days whose roll-ups are stale because data for them arrived after they were rolled up
 * (ingestion, late webhooks). `marked_at` moves on every new mark, so the roll-up job can clear only
 * the marks it has seen and keep one made while it was recomputing.
 */
export const rollupDirtyDays = sqliteTable(
  "rollup_dirty_days",
  {
    source: text("source").notNull(),
    day: text("day").notNull(),
    markedAt: text("marked_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.source, t.day] })],
);

/** Fixed-window rate-limit counters for public account calls. */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull().default(0),
});

/** Assistants kept by the local voice simulator (the default voice adapter). */
export const simAssistants = sqliteTable(
  "sim_assistants",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    name: text("name").notNull(),
    prompt: text("prompt").notNull(),
    voiceId: text("voice_id").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sim_assistants_owner_idx").on(t.ownerId)],
);

/**
 * Calls placed by the local voice simulator, kept as the platform keeps its own call records (the
 * platform's call object as JSON), apart from our call log: the simulator reads only this table,
 * never the call log its reports feed (ADR 007).
 */
export const simCalls = sqliteTable(
  "sim_calls",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    assistantId: text("assistant_id").notNull(),
    /** The platform's call object (the voice port's PlatformCall). */
    call: text("call", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The call list filters by assistant, newest first.
  (t) => [index("sim_calls_assistant_time_idx").on(t.assistantId, t.createdAt)],
);
