// Business constants of both spec documents, used by worker and web alike.

/** The nine stores, each with its call-provider (Aircall) number name, in the spec's order. */
export const STORES = ["IOWA", "LARGO", "MIAMI", "NAPLES", "PEMBROKE", "TULSA", "TYLER", "WOODLANDS", "OKC"] as const;
export type Store = (typeof STORES)[number];

export const STORE_NUMBER_NAMES: Record<Store, string> = {
  IOWA: "Iowa city",
  LARGO: "Largo.",
  MIAMI: "Miami",
  NAPLES: "Naples.",
  PEMBROKE: "Pembroke Pines",
  TULSA: "Tulsa",
  TYLER: "Tyler.",
  WOODLANDS: "Woodlands.",
  OKC: "Oklahoma City",
};

export const DISPLAY_TIME_ZONE = "America/New_York";

export const AUTH_LIMITS = { minPassword: 6, minUsername: 3, minCompany: 1 } as const;
export const ACTIVATION_MIN_PASSWORD = 8;

export const AGENT_LIMITS = { minName: 2, minDescription: 20, minServices: 20, minInstructions: 20 } as const;
export const DEFAULT_VOICE_ID = "marissa-11labs";
export const NEW_AGENT_ID = -1;
export const NEW_AGENT_NAME = "New Agent";
/** Agents allowed per plan (docs/product/plans-and-billing.md#plans plan features). */
export const PLAN_AGENT_LIMITS = { basic: 5, pro: 25 } as const;
/** Agents an account without a plan may keep as drafts (none can be activated): the basic plan's. */
export const NO_PLAN_AGENT_LIMIT = PLAN_AGENT_LIMITS.basic;
/** Call minutes per New York month per plan (docs/product/constants.md#business-constants). */
export const PLAN_MINUTE_LIMITS = { basic: 1000, pro: 5000 } as const;
/** Test calls an account may place per New York day, whatever its plan. */
export const TEST_CALLS_PER_DAY = 50;
/** Outbound test calls a user may start per minute. */
export const TEST_CALL_RATE = { limit: 10, windowSeconds: 60 } as const;

export const PHONE_LIMIT = { default: 9, min: 1, max: 100 } as const;
export const PHONE_SEARCH_LIMIT = 50;
export const PHONE_RESULTS_PER_PAGE = 10;
export const USAGE_BAR_WARNING_RATIO = 0.8;

export const CALL_SUMMARY_MAX = 50;
export const TRANSCRIPT_PANE_HEIGHT_PX = 400;
export const ANALYSIS_LIMIT = 300;

export const TEST_CALL_POLL = { intervalMs: 5_000, durationMs: 30_000 } as const;
export const USAGE_STATS_STALE_MS = 30_000;
export const USAGE_STATS_RETRIES = 3;
export const VAPI_CALL_LOGS_STALE_MS = 30_000;
export const ADMIN_STATS_STALE_MS = 60_000;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export const TRIAL_DAYS = 7;
export const ANNUAL_SAVING_LABEL = "Save 10%";
export const LEAD_INTEREST_LEVEL = 4;

export const SECONDS_PER_HOUR = 3600;
export const SECONDS_PER_MINUTE = 60;

export const CALL_TYPES = ["Outbound", "Inbound", "Both"] as const;
export type CallType = (typeof CALL_TYPES)[number];
export const DEFAULT_CALL_TYPE: CallType = "Outbound";
/**
 * The call directions of each call type. A browser (web) call is not a phone call: it is in no call
 * count, chart, report or "calls this month" (decision 009); "Both" is every phone call.
 */
export const CALL_TYPE_DIRECTIONS: Record<CallType, readonly ("inbound" | "outbound")[]> = { Outbound: ["outbound"], Inbound: ["inbound"], Both: ["inbound", "outbound"] };

/** Shopwindow's appointment statuses, in the order the status counts list them. */
export const APPOINTMENT_STATUSES = ["Scheduled", "Visited", "Sold", "No Show", "Cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_CATEGORY_KEYS = [
  "Reservations schedule today",
  "Upcoming",
  "Reservations visit",
  "Reservations took (sold)",
  "Reservations booked today",
  "Reservations Booked Today-Future",
  "Virtual Scheduled Today",
  "Virtual No Call",
  "Virtual No Answer",
  "Virtual Answered",
  "Virtual Purchased",
  "Inbound Booked",
  "Outbound Booked",
  "Total",
] as const;

/** Local storage key of the last-used email, used to prefill the login form. */
export const LAST_EMAIL_KEY = "voice-agent-ops:last-email";
