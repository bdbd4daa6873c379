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
    /**
     * When an admin last changed the flags (docs/decisions/018-admin-users.md): an access token issued
     * before it carries stale app_metadata, so the profile's flags win over it.
     */
    flagsUpdatedAt: text("flags_updated_at"),
    /** The D1 binding of the shard holding the account's calls, alerts and webhooks (decision 076). */
    shard: text("shard"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The accounts of a shard: its status and the jobs that reach every shard.
    index("profiles_shard_idx").on(t.shard),
    // Not unique: an account deleted at the identity provider and registered again gets a new id.
    index("profiles_email_idx").on(sql`lower(${t.email})`),
    // The admin user list: newest first, keyset pages on (created_at, id); prefix search per column.
    index("profiles_created_idx").on(t.createdAt, t.id),
    index("profiles_username_idx").on(sql`lower(${t.username})`),
    index("profiles_company_idx").on(sql`lower(${t.company})`),
    // The last-admin check counts admins without reading every profile.
    index("profiles_admin_idx").on(t.isAdmin).where(sql`${t.isAdmin} = 1`),
  ],
);

/**
 * Each shard's last measured size (the database's own) and whether it takes new accounts (decision
 * 076). A bound shard not yet measured has no row.
 */
export const shards = sqliteTable("shards", {
  name: text("name").primaryKey(),
  open: integer("open", { mode: "boolean" }).notNull().default(true),
  sizeBytes: integer("size_bytes").notNull().default(0),
  measuredAt: text("measured_at"),
});

/**
 * Moves of an account between shards (decision 080, worker/services/shards/move.ts): where each one
 * stands, so the next step (cron or command) goes on from there. One unfinished move per account.
 */
export const shardMoves = sqliteTable(
  "shard_moves",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    fromShard: text("from_shard").notNull(),
    toShard: text("to_shard").notNull(),
    phase: text("phase").notNull().default("copying"),
    cursor: text("cursor").notNull().default('{"table":0,"after":0}'),
    since: text("since"),
    rowsCopied: integer("rows_copied").notNull().default(0),
    startedBy: text("started_by").notNull(),
    startedAt: text("started_at").notNull().default(now),
    updatedAt: updatedAt(),
    switchedAt: text("switched_at"),
    finishedAt: text("finished_at"),
    leaseUntil: text("lease_until"),
    error: text("error"),
  },
  (t) => [uniqueIndex("shard_moves_running_uq").on(t.userId).where(sql`${t.phase} <> 'done'`), index("shard_moves_started_idx").on(t.startedAt)],
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
    /** How the session began: `password`, or `recovery` (an emailed recovery link; may set a new password once). */
    method: text("method", { enum: ["password", "recovery"] }).notNull().default("password"),
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
    kind: text("kind", { enum: ["signup", "activation", "recovery", "email_change"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** email_change only: the address the account moves to once the link is followed. */
    newEmail: text("new_email"),
    redirectTo: text("redirect_to"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("auth_ott_hash_uq").on(t.tokenHash), index("auth_ott_user_idx").on(t.userId, t.kind)],
);

/**
 * Numbers a search offered to an account (spec: purchases only of numbers the search returned). A
 * purchase needs an unexpired offer of its number to the buyer; searches refresh their offers.
 */
export const phoneNumberOffers = sqliteTable(
  "phone_number_offers",
  {
    userId: text("user_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.phoneNumber] })],
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
    /** The HTML version, when the mail has one (the mailbox shows it sandboxed). */
    bodyHtml: text("body_html"),
    /** Extra headers of the mail (List-Unsubscribe...), as a JSON object. */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    /** The sender's idempotency key: a second message with the same key is not stored. */
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("mail_outbox_to_idx").on(t.toEmail, t.id),
    uniqueIndex("mail_outbox_idempotency_key_uq").on(t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
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
    // (user_id, start_time, id) serves the keyset pages. The other columns make it covering for what
    // the counts, the chart and usage read live (today, days not rolled up): duration for the monthly
    // usage sum, direction, assistant, ended reason and cost for the call-log counts and the chart,
    // which would otherwise look up every call row of today (decision 048).
    index("call_logs_user_time_idx").on(t.userId, t.startTime, t.id, t.duration, t.direction, t.assistantId, t.endedReason, t.cost),
    // By time first, for the roll-up job (every account's calls of a day) and the oldest call; the
    // other columns make the job's read index-only instead of one row lookup per call (decision 048).
    index("call_logs_time_idx").on(t.startTime, t.userId, t.assistantId, t.direction, t.endedReason, t.duration, t.cost),
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
    // Covering indexes (migration 0022, decision 055): the roll-up job reads the time index alone; a
    // count's live part reads one direction's calls of a day, with a line filter by the line's index.
    index("aircall_calls_time_idx").on(t.startedAt, t.direction, t.numberName, t.userName, t.answeredAt, t.transferredToStore),
    index("aircall_calls_direction_time_idx").on(t.direction, t.startedAt, t.numberName, t.userName, t.answeredAt, t.transferredToStore),
    index("aircall_calls_number_time_idx").on(t.numberName, t.direction, t.startedAt, t.userName, t.answeredAt, t.transferredToStore),
    // A count's live part with a user filter; the user options' loose index scan (one seek per name).
    index("aircall_calls_user_idx").on(t.userName, t.direction, t.startedAt, t.numberName, t.answeredAt, t.transferredToStore),
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
    // The live parts of the counts (today, dirty days) read every column their figures and filters
    // need from these two, never the table (decision 049).
    index("appointments_begin_idx").on(t.beginUtc, t.status, t.isVirtual, t.virtualOutcome, t.store, t.bookedBy, t.appointmentType),
    index("appointments_store_begin_idx").on(t.store, t.beginUtc),
    index("appointments_booked_idx").on(t.bookedAt, t.beginUtc, t.bookingChannel, t.store, t.bookedBy, t.appointmentType),
    // "Upcoming" reads scheduled appointments after a range: the index covers every column it reads
    // (booked time and the three filters), so it never visits the table. The options read distinct values.
    index("appointments_scheduled_cover_idx")
      .on(t.beginUtc, t.bookedAt, t.store, t.bookedBy, t.appointmentType)
      .where(sql`${t.status} = 'Scheduled'`),
    // The live part of "Upcoming" over the roll-ups: scheduled appointments of the booked days the
    // roll-up does not answer (before its coverage, dirty, today), by booking time.
    index("appointments_scheduled_booked_idx")
      .on(t.bookedAt, t.beginUtc, t.store)
      .where(sql`${t.status} = 'Scheduled'`),
    index("appointments_booked_by_idx").on(t.bookedBy),
    index("appointments_type_idx").on(t.appointmentType),
  ],
);

/**
 * Store leads: the store network's lead submissions (ingested, each with its store), the leads that
 * every lead count, roll-up and daily report reads (docs/product/api.md#dashboard-counts). A visitor's plan lead is in plan_leads.
 */
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

/**
 * Visitors' plan leads: the checkout's lead form (docs/product/README.md#records, POST /api/leads/leads), kept apart from
 * the stores' leads so that no one outside moves a store figure. No count reads them.
 */
export const planLeads = sqliteTable(
  "plan_leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    company: text("company"),
    leadSource: text("lead_source", { enum: ["trial", "website"] }).notNull(),
    leadStatus: text("lead_status").notNull().default("new"),
    interestLevel: integer("interest_level").notNull().default(4),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    submittedAt: text("submitted_at").notNull(),
  },
  (t) => [index("plan_leads_submitted_idx").on(t.submittedAt)],
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

// ---------------------------------------------------------------- roll-ups (docs/decisions/011-rollups.md)
// Per New York day counts written by worker/jobs/rollups.ts, one or more tables per source. Keys start with
// the dimension every count query fixes (the account for call logs, else the day), so a count reads
// O(days x combinations) rows. Null dimensions are '' so each key is unique. No updated_at: a rerun
// writes byte-identical rows. Figures follow docs/decisions/009-count-definitions.md.

const callLogFigureColumns = () => ({
  total: integer("total").notNull().default(0),
  connected: integer("connected").notNull().default(0),
  voicemail: integer("voicemail").notNull().default(0),
  forwarded: integer("forwarded").notNull().default(0),
  durationSeconds: integer("duration_seconds").notNull().default(0),
  cost: real("cost").notNull().default(0),
});

/** Call logs by (account, day of start_time, assistant, direction); duration for the monthly usage. */
export const callLogDaily = sqliteTable(
  "call_log_daily",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    assistantId: text("assistant_id").notNull().default(""),
    direction: text("direction").notNull(),
    ...callLogFigureColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.assistantId, t.direction] })],
);

/**
 * The same figures by (account, day of start_time, direction) only: counts without an agent filter
 * read a few rows a day, however many assistants the account has.
 */
export const callLogUserDaily = sqliteTable(
  "call_log_user_daily",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    direction: text("direction").notNull(),
    ...callLogFigureColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.direction] })],
);

/**
 * Today's finished hours of the two tables above (docs/decisions/034-intraday-rollups.md): the same
 * figures by UTC hour (its start, ISO), with the hour's New York day, for [from_at, through_at) of
 * rollup_hour_state. A count of a live day reads these rows up to the watermark and only the calls
 * after it live, so its cost does not grow through the day.
 */
export const callLogHourly = sqliteTable(
  "call_log_hourly",
  {
    userId: text("user_id").notNull(),
    hour: text("hour").notNull(),
    day: text("day").notNull(),
    assistantId: text("assistant_id").notNull().default(""),
    direction: text("direction").notNull(),
    ...callLogFigureColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour, t.assistantId, t.direction] })],
);

export const callLogUserHourly = sqliteTable(
  "call_log_user_hourly",
  {
    userId: text("user_id").notNull(),
    hour: text("hour").notNull(),
    day: text("day").notNull(),
    direction: text("direction").notNull(),
    ...callLogFigureColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour, t.direction] })],
);

const aircallFigureColumns = () => ({
  total: integer("total").notNull().default(0),
  answered: integer("answered").notNull().default(0),
  storeTransfers: integer("store_transfers").notNull().default(0),
});

/** Aircall calls by (day of started_at, line, user, direction): counts filtered by user. */
export const aircallDaily = sqliteTable(
  "aircall_daily",
  {
    day: text("day").notNull(),
    numberName: text("number_name").notNull().default(""),
    userName: text("user_name").notNull().default(""),
    direction: text("direction").notNull(),
    ...aircallFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.numberName, t.userName, t.direction] }),
    // A count with a user and a line seeks its one row a day from the index alone (decision 055).
    index("aircall_daily_read_idx").on(t.userName, t.numberName, t.direction, t.day, t.total, t.answered, t.storeTransfers),
  ],
);

/** The same by (day, line, direction) only: counts without a user filter read a few rows a day. */
export const aircallNumberDaily = sqliteTable(
  "aircall_number_daily",
  {
    day: text("day").notNull(),
    numberName: text("number_name").notNull().default(""),
    direction: text("direction").notNull(),
    ...aircallFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.numberName, t.direction] }),
    // A count with a line and no user seeks its one row a day from the index alone (decision 055).
    index("aircall_number_daily_read_idx").on(t.numberName, t.direction, t.day, t.total, t.answered, t.storeTransfers),
  ],
);

/** The same by (day, user, direction): counts with a user and no line (decision 055). */
export const aircallUserDaily = sqliteTable(
  "aircall_user_daily",
  {
    day: text("day").notNull(),
    userName: text("user_name").notNull().default(""),
    direction: text("direction").notNull(),
    ...aircallFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.userName, t.direction] }),
    index("aircall_user_daily_read_idx").on(t.userName, t.direction, t.day, t.total, t.answered, t.storeTransfers),
  ],
);

/** The same by (day, direction), every line and user summed: counts with neither filter (decision 055). */
export const aircallAllDaily = sqliteTable(
  "aircall_all_daily",
  {
    day: text("day").notNull(),
    direction: text("direction").notNull(),
    ...aircallFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.direction] }),
    index("aircall_all_daily_read_idx").on(t.direction, t.day, t.total, t.answered, t.storeTransfers),
  ],
);

const appointmentBeginFigureColumns = () => ({
  total: integer("total").notNull().default(0),
  scheduled: integer("scheduled").notNull().default(0),
  visited: integer("visited").notNull().default(0),
  sold: integer("sold").notNull().default(0),
  noShow: integer("no_show").notNull().default(0),
  cancelled: integer("cancelled").notNull().default(0),
  virtualScheduled: integer("virtual_scheduled").notNull().default(0),
  virtualNoCall: integer("virtual_no_call").notNull().default(0),
  virtualNoAnswer: integer("virtual_no_answer").notNull().default(0),
  virtualAnswered: integer("virtual_answered").notNull().default(0),
  virtualPurchased: integer("virtual_purchased").notNull().default(0),
});

const appointmentBookedFigureColumns = () => ({
  booked: integer("booked").notNull().default(0),
  bookedFuture: integer("booked_future").notNull().default(0),
  inboundBooked: integer("inbound_booked").notNull().default(0),
  outboundBooked: integer("outbound_booked").notNull().default(0),
});

/** Appointments by the day they begin, with the status and begin-day category figures. */
export const appointmentBeginDaily = sqliteTable(
  "appointment_begin_daily",
  {
    day: text("day").notNull(),
    store: text("store").notNull(),
    bookedBy: text("booked_by").notNull().default(""),
    appointmentType: text("appointment_type").notNull(),
    ...appointmentBeginFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.store, t.bookedBy, t.appointmentType] }),
    index("appointment_begin_daily_store_idx").on(t.store, t.day),
    // A booked-by or type filter seeks its own rows instead of reading every combination of the day.
    index("appointment_begin_daily_booked_by_idx").on(t.bookedBy, t.day),
    index("appointment_begin_daily_type_idx").on(t.appointmentType, t.day),
  ],
);

/** Appointments by the day they were booked, with the booked-day category figures. */
export const appointmentBookedDaily = sqliteTable(
  "appointment_booked_daily",
  {
    day: text("day").notNull(),
    store: text("store").notNull(),
    bookedBy: text("booked_by").notNull().default(""),
    appointmentType: text("appointment_type").notNull(),
    ...appointmentBookedFigureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.store, t.bookedBy, t.appointmentType] }),
    index("appointment_booked_daily_store_idx").on(t.store, t.day),
    // A booked-by or type filter seeks its own rows instead of reading every combination of the day.
    index("appointment_booked_daily_booked_by_idx").on(t.bookedBy, t.day),
    index("appointment_booked_daily_type_idx").on(t.appointmentType, t.day),
  ],
);

/** The begin-day figures by (day, store) only: counts without a booked-by or type filter. */
export const appointmentBeginStoreDaily = sqliteTable(
  "appointment_begin_store_daily",
  { day: text("day").notNull(), store: text("store").notNull(), ...appointmentBeginFigureColumns() },
  (t) => [primaryKey({ columns: [t.day, t.store] }), index("appointment_begin_store_daily_store_idx").on(t.store, t.day)],
);

/** The booked-day figures by (day, store) only. */
export const appointmentBookedStoreDaily = sqliteTable(
  "appointment_booked_store_daily",
  { day: text("day").notNull(), store: text("store").notNull(), ...appointmentBookedFigureColumns() },
  (t) => [primaryKey({ columns: [t.day, t.store] }), index("appointment_booked_store_daily_store_idx").on(t.store, t.day)],
);

/**
 * The begin-day and booked-day figures by day only, every store summed: counts without a store,
 * booked-by or type filter (the dashboard's category count) read one row a day (decision 049).
 */
export const appointmentBeginAllDaily = sqliteTable("appointment_begin_all_daily", {
  day: text("day").notNull().primaryKey(),
  ...appointmentBeginFigureColumns(),
});

export const appointmentBookedAllDaily = sqliteTable("appointment_booked_all_daily", {
  day: text("day").notNull().primaryKey(),
  ...appointmentBookedFigureColumns(),
});

/**
 * Scheduled appointments by (day booked, store, New York day they begin), only those beginning after
 * their booking day: "Upcoming" for a range ending on day R is the sum of the rows booked by R that
 * begin after R (decision 047), a few rows per future day instead of every scheduled appointment.
 */
export const appointmentUpcomingDaily = sqliteTable(
  "appointment_upcoming_daily",
  {
    day: text("day").notNull(),
    store: text("store").notNull(),
    beginDay: text("begin_day").notNull(),
    scheduled: integer("scheduled").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.store, t.beginDay] }),
    // Counts seek the begin days after the range; the index holds every column they read.
    index("appointment_upcoming_daily_begin_idx").on(t.beginDay, t.day, t.store, t.scheduled),
  ],
);

/**
 * The same as appointment_upcoming_daily with every store summed, by (day booked, New York day they
 * begin): Upcoming without a store reads a row per booking day and begin day still ahead.
 */
export const appointmentUpcomingAllDaily = sqliteTable(
  "appointment_upcoming_all_daily",
  {
    day: text("day").notNull(),
    beginDay: text("begin_day").notNull(),
    scheduled: integer("scheduled").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.beginDay] }),
    index("appointment_upcoming_all_daily_begin_idx").on(t.beginDay, t.day, t.scheduled),
  ],
);

/** Lead submissions by (day of submitted_at, store); '' is "no store". */
export const leadDaily = sqliteTable(
  "lead_daily",
  {
    day: text("day").notNull(),
    store: text("store").notNull().default(""),
    submissions: integer("submissions").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.store] })],
);

/**
 * New York days whose roll-ups are stale because data for them arrived after they were rolled up
 * (ingestion, late webhooks, backfill); counts read them live until the roll-up job recomputes them
 * and clears the mark in the same transaction. `marked_at` says when the day was last marked.
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

/** Per source, the days the roll-up job has rolled up: [from_day, until_day). */
export const rollupState = sqliteTable("rollup_state", {
  source: text("source").primaryKey(),
  fromDay: text("from_day").notNull(),
  untilDay: text("until_day").notNull(),
});

/**
 * Per source, the hours the intraday roll-up covers: [from_at, through_at), both UTC hour starts
 * (ISO). A writer of a row whose time is before through_at moves through_at back to that row's
 * hour in the same batch, so a covered hour is never stale (docs/decisions/034-intraday-rollups.md).
 */
export const rollupHourState = sqliteTable("rollup_hour_state", {
  source: text("source").primaryKey(),
  fromAt: text("from_at").notNull(),
  throughAt: text("through_at").notNull(),
});

/**
 * Failed password sign-ins per email (whether or not an account has it, so a lock tells nothing):
 * after a few failures each further attempt waits a growing, capped delay. Pruned by the daily job.
 */
export const authSignInFailures = sqliteTable("auth_sign_in_failures", {
  email: text("email").primaryKey(),
  failures: integer("failures").notNull().default(0),
  /** Epoch milliseconds. */
  lastFailedAt: integer("last_failed_at").notNull(),
  /** Epoch milliseconds; no attempt is checked before then. */
  lockedUntil: integer("locked_until"),
});

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

/**
 * The nightly daily reports (docs/decisions/012-daily-reports.md): one CSV per New York day for all
 * stores (store NULL) and per store. NULLs are distinct in a SQLite unique index, so the index keys
 * on the store with NULL as '': a rerun for a day replaces its reports, never duplicates them.
 */
export const dailyReports = sqliteTable(
  "daily_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    day: text("day").notNull(),
    store: text("store"),
    csv: text("csv").notNull(),
    rows: integer("rows").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Written without a comma: drizzle-kit splits an index expression on commas.
    uniqueIndex("daily_reports_day_store_idx").on(t.day, sql`(CASE WHEN store IS NULL THEN '' ELSE store END)`),
  ],
);

/**
 * Append-only record of every admin action (docs/decisions/018-admin-users.md), written in the same
 * batch as the action. Ids and emails are copied, not referenced: the record outlives the accounts
 * it names (a deleted user's deletion is recorded here). Triggers in the migration refuse UPDATE and
 * DELETE.
 */
export const adminAuditLog = sqliteTable(
  "admin_audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetUserId: text("target_user_id"),
    targetEmail: text("target_email"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    ip: text("ip"),
    createdAt: createdAt(),
  },
);

// ---------------------------------------------------------------- billing (docs/decisions/020-billing-port.md)

/**
 * The local billing adapter's own records (checkout sessions, customers, subscriptions, invoices),
 * kept in Stripe's object shapes so the webhook code reads the same fields in both modes.
 */
export const billingLocalObjects = sqliteTable(
  "billing_local_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["checkout_session", "customer", "subscription", "invoice"] }).notNull(),
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("billing_local_objects_kind_idx").on(t.kind, t.createdAt)],
);

/**
 * Accounts created for a buyer, waiting for their first password (docs/decisions/021-account-activation.md).
 * The first password is set once: with the paid or trial checkout session, or through the activation mail.
 */
export const accountActivations = sqliteTable(
  "account_activations",
  {
    userId: text("user_id").primaryKey(),
    email: text("email").notNull(),
    checkoutSessionId: text("checkout_session_id"),
    passwordSetAt: text("password_set_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("account_activations_email_uq").on(sql`lower(${t.email})`), index("account_activations_session_idx").on(t.checkoutSessionId)],
);

/**
 * Accounts deleted by an admin (decision 040): a token naming one is refused until `expires_at`,
 * past the longest lifetime of an access token, instead of creating its profile again. The id stays
 * on purpose (USER_ID_KEPT); later deletions remove expired rows.
 */
export const deletedAccounts = sqliteTable("deleted_accounts", {
  userId: text("user_id").primaryKey(),
  deletedAt: text("deleted_at").notNull(),
  expiresAt: text("expires_at").notNull(),
}, (t) => [index("deleted_accounts_expires_idx").on(t.expiresAt)]);

/**
 * Live-feed tickets (decision 058): the SHA-256 of each ticket's secret with the identity confirmed
 * when it was issued, valid for seconds. The upgrade spends its ticket here, before any Durable Object
 * is named, so a forged ticket reaches no object. Expired rows go at the next issue.
 */
export const liveTickets = sqliteTable("live_tickets", {
  hash: text("hash").primaryKey(),
  userId: text("user_id").notNull(),
  /** The LiveIdentity as JSON. */
  who: text("who").notNull(),
  /** Epoch milliseconds. */
  expiresAt: integer("expires_at").notNull(),
}, (t) => [index("live_tickets_expires_idx").on(t.expiresAt), index("live_tickets_user_idx").on(t.userId)]);

/**
 * The last run of each scheduled job, one row per job, written by the scheduled handler and shown to
 * admins on /api/health ([025](../../docs/decisions/025-job-runs-and-log-scope.md)). The last error
 * stays (with its time and run id) after later successful runs, so a failure seen late is not lost.
 */
export const jobRuns = sqliteTable("job_runs", {
  job: text("job").primaryKey(),
  cron: text("cron").notNull(),
  lastRunId: text("last_run_id").notNull(),
  lastStartedAt: text("last_started_at").notNull(),
  lastFinishedAt: text("last_finished_at").notNull(),
  lastDurationMs: integer("last_duration_ms").notNull(),
  lastOk: integer("last_ok", { mode: "boolean" }).notNull(),
  lastError: text("last_error"),
  lastErrorAt: text("last_error_at"),
  lastErrorRunId: text("last_error_run_id"),
});

// ---------------------------------------------------------------- the daily report by email (docs/decisions/060-daily-report-mail.md)

/** Who gets the nightly report by email: one row per user who ever used the switch (off by default). */
export const reportMailSubscriptions = sqliteTable(
  "report_mail_subscriptions",
  {
    userId: text("user_id").primaryKey(),
    subscribed: bool("subscribed"),
    changedAt: text("changed_at").notNull(),
    /** The app's address the switch was used from: the mail's links when PUBLIC_URL is unset. */
    origin: text("origin"),
    createdAt: createdAt(),
  },
  (t) => [index("report_mail_subscriptions_on_idx").on(t.userId).where(sql`${t.subscribed} = 1`)],
);

/**
 * A report mail's delivery, one per (user, report day): claimed before the mail is sent, so a rerun
 * or an overlapping run of the job finds it taken. A failed or long-stale claim may be taken again
 * within a day of the first, the retry carrying the same idempotency key.
 */
export const reportMailDeliveries = sqliteTable(
  "report_mail_deliveries",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    status: text("status", { enum: ["sending", "sent", "failed"] }).notNull(),
    claimId: text("claim_id").notNull(),
    firstClaimedAt: text("first_claimed_at").notNull(),
    claimedAt: text("claimed_at").notNull(),
    attempts: integer("attempts").notNull().default(1),
    sentAt: text("sent_at"),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("report_mail_deliveries_day_idx").on(t.day)],
);

/** The unsubscribe links' tokens, by SHA-256 hash only; each attempt of a delivery adds its own. */
export const reportMailUnsubscribeTokens = sqliteTable(
  "report_mail_unsubscribe_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("report_mail_unsubscribe_tokens_user_idx").on(t.userId), index("report_mail_unsubscribe_tokens_day_idx").on(t.day)],
);

// ---------------------------------------------------------------- the plan's minutes, mailed at 80 % and 100 % (decision 022)

/**
 * The owner's mail that the account has used 80 % or all of its plan's call minutes in a New York
 * month, one row per (user, month, threshold): claimed before the mail is sent, so no later or
 * overlapping run sends it again; a failed send gives its claim back for the next run.
 */
export const usageAlerts = sqliteTable(
  "usage_alerts",
  {
    userId: text("user_id").notNull(),
    /** The New York month, YYYY-MM. */
    month: text("month").notNull(),
    /** Percent of the plan's minutes: 80 or 100. */
    threshold: integer("threshold").notNull(),
    claimedAt: text("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month, t.threshold] })],
);

/**
 * Alert rules (decision 071, migration 0035): a metric over a scope compared with a threshold over
 * a window, with a cooldown, a severity and its channels. The evaluation writes through raw SQL
 * (worker/services/alerts/); these declarations give the account's deletion its tables.
 */
export const alertRules = sqliteTable(
  "alert_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    metric: text("metric").notNull(),
    scopeKind: text("scope_kind").notNull(),
    scopeId: text("scope_id").notNull().default(""),
    comparison: text("comparison").notNull(),
    threshold: real("threshold").notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    cooldownMinutes: integer("cooldown_minutes").notNull(),
    severity: text("severity").notNull(),
    emailAccount: integer("email_account", { mode: "boolean" }).notNull().default(true),
    extraEmails: text("extra_emails").notNull().default("[]"),
    webhook: bool("webhook"),
    bell: integer("bell", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("alert_rules_user_idx").on(t.userId, t.id)],
);

/** Each rule's state (ok or triggered, since when), the run that last moved it and the cooldown's start. */
export const alertRuleState = sqliteTable(
  "alert_rule_state",
  {
    ruleId: integer("rule_id")
      .primaryKey()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    status: text("status").notNull().default("ok"),
    since: text("since").notNull(),
    lastFiredAt: text("last_fired_at"),
    alertId: integer("alert_id"),
    runId: text("run_id"),
    evaluatedAt: text("evaluated_at"),
    lastValue: real("last_value"),
  },
  (t) => [index("alert_rule_state_user_idx").on(t.userId)],
);

/** Every firing, kept 90 days, with the rule as it was then. */
export const alertHistory = sqliteTable(
  "alert_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    ruleId: integer("rule_id"),
    ruleName: text("rule_name").notNull(),
    metric: text("metric").notNull(),
    scopeKind: text("scope_kind").notNull(),
    scopeId: text("scope_id").notNull().default(""),
    scopeLabel: text("scope_label").notNull().default(""),
    severity: text("severity").notNull(),
    comparison: text("comparison").notNull(),
    threshold: real("threshold").notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    value: real("value").notNull(),
    windowStart: text("window_start").notNull(),
    windowEnd: text("window_end").notNull(),
    firedAt: text("fired_at").notNull(),
    runId: text("run_id").notNull(),
    resolvedAt: text("resolved_at"),
    resolvedValue: real("resolved_value"),
    acknowledgedAt: text("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
  },
  (t) => [
    index("alert_history_user_idx").on(t.userId, t.firedAt),
    index("alert_history_fired_idx").on(t.firedAt),
    index("alert_history_rule_run_idx").on(t.ruleId, t.runId),
  ],
);

/** The in-app bell: one row per firing and per resolution. */
export const alertNotifications = sqliteTable(
  "alert_notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    alertId: integer("alert_id").notNull(),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    severity: text("severity").notNull(),
    createdAt: text("created_at").notNull(),
    readAt: text("read_at"),
  },
  (t) => [index("alert_notifications_user_idx").on(t.userId, t.id)],
);

/**
 * The extra addresses an account's alert rules mail (decision 073), one row per (account, address),
 * so a confirmation or an unsubscribe holds for every rule of the account. An address is mailed only
 * when confirmed: the confirmation link's token is kept as its SHA-256 hash; the unsubscribe link
 * carries `unsubscribe_id`, a random id that can do nothing but unsubscribe this address from this
 * account.
 */
export const alertMailRecipients = sqliteTable(
  "alert_mail_recipients",
  {
    userId: text("user_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    status: text("status", { enum: ["pending", "confirmed", "unsubscribed"] }).notNull().default("pending"),
    confirmTokenHash: text("confirm_token_hash"),
    /** When the last confirmation mail was sent (null: never yet). */
    confirmSentAt: text("confirm_sent_at"),
    unsubscribeId: text("unsubscribe_id").notNull(),
    changedAt: text("changed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.email] }),
    uniqueIndex("alert_mail_recipients_confirm_idx").on(t.confirmTokenHash),
    uniqueIndex("alert_mail_recipients_unsubscribe_idx").on(t.unsubscribeId),
  ],
);

/**
 * Every alert, confirmation and "mail paused" mail claimed, by UTC day: the daily caps count these
 * rows inside the claiming INSERT itself, and (kind, ref, email) is unique, so a mail is claimed once
 * (ref: `<alert id>:<triggered|resolved>` for an alert, the day for a pause notice, a random id for a
 * confirmation). Rows older than two days are pruned nightly.
 */
export const alertMailLog = sqliteTable(
  "alert_mail_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    email: text("email").notNull(),
    day: text("day").notNull(),
    kind: text("kind", { enum: ["alert", "paused", "confirm"] }).notNull(),
    ref: text("ref").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alert_mail_log_claim_idx").on(t.kind, t.ref, t.email),
    index("alert_mail_log_account_idx").on(t.userId, t.day, t.kind),
    index("alert_mail_log_email_idx").on(t.email, t.day, t.kind),
  ],
);

/** Custom webhooks (docs/webhooks.md): an account's endpoint. `events` is a JSON array of event types. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").notNull(),
    /** whsec_ + base64 of 32 random bytes: the current signing secret. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    /**
     * The secret before that, when it was still signing at the last rotation: it keeps signing until
     * its own expiry, older_secret_expires_at (at most three secrets sign at once; decision 074).
     */
    olderSecret: text("older_secret"),
    olderSecretExpiresAt: text("older_secret_expires_at"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since the last successful one (null while deliveries succeed). */
    failingSince: text("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/** One event's delivery to one endpoint; its id is the `webhook-id` of every attempt. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id").notNull(),
    userId: text("user_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The JSON body, exactly as signed and sent. */
    payload: text("payload").notNull(),
    /** pending, succeeded or failed. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: text("last_attempt_at"),
    nextAttemptAt: text("next_attempt_at"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt), index("webhook_deliveries_created_idx").on(t.createdAt)],
);

/** One attempt of a delivery: the receiver's status (null without one), time taken, first 1 KB of its answer. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attempt: integer("attempt").notNull(),
    attemptedAt: text("attempted_at").notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    responseBody: text("response_body"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt), index("webhook_attempts_time_idx").on(t.attemptedAt)],
);

/** The local receiver's inbox (outside production only): each delivery it took, and whether it verified. */
export const webhookInbox = sqliteTable(
  "webhook_inbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    inbox: text("inbox").notNull(),
    receivedAt: text("received_at").notNull(),
    webhookId: text("webhook_id"),
    eventType: text("event_type"),
    headers: text("headers").notNull(),
    body: text("body").notNull(),
    verified: integer("verified", { mode: "boolean" }).notNull().default(false),
    verifyError: text("verify_error"),
    /** The status the receiver answered (a fault asked for in the endpoint's URL answers 500 or 503). */
    answered: integer("answered").notNull().default(200),
  },
  (t) => [index("webhook_inbox_inbox_idx").on(t.inbox, t.id)],
);

/**
 * Keys of the public API (/v1; docs/api.md, decision 069): only the SHA-256 of the secret is kept;
 * `prefix` is the part of the key the list shows. A revoked key keeps its row (revoked_at set).
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.secretHash), index("api_keys_user_idx").on(t.userId, t.revokedAt, t.createdAt)],
);
