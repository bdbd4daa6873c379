// Fixed-window rate limits kept in D1, so they hold across isolates.
import { and, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { tooManyRequests } from "../lib/errors";
import type { Database } from "./client";
import { rateLimits } from "./schema";

/** What the limits read of a request: its headers, and the request's database. */
type RequestHeaders = { req: { header(name: string): string | undefined } };
type RequestWithDb = RequestHeaders & { var: { db: Database } };

export type Limit = { name: string; limit: number; windowSeconds: number };

/** Counts one hit for `key` and reports whether it is still within the limit. */
export async function hit(db: Database, rule: Limit, key: string, nowMs = Date.now()): Promise<boolean> {
  return withinLimit(rule, await hitStatement(db, rule, key, undefined, nowMs));
}

/**
 * The statement that counts one hit for `key`, for a caller's batch (so the count rides with its
 * writes); its row is the count, for `withinLimit`. With `when`, the hit is counted only where that
 * condition holds at its place in the batch (no row otherwise).
 */
export function hitStatement(db: Database, rule: Limit, key: string, when?: SQL, nowMs = Date.now()) {
  const windowStart = Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds;
  return db
    .insert(rateLimits)
    .select(sql`select ${`${rule.name}:${key}`}, ${windowStart}, 1 where ${when ?? sql`1`}`)
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.count} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ count: rateLimits.count });
}

/**
 * The SQL condition that `key`'s count in the rule's current window is within its limit, for a later
 * statement of the batch that counted the hit (hitStatement): it writes only when the hit was allowed.
 */
export function withinLimitSql(rule: Limit, key: string, nowMs = Date.now()): SQL {
  const windowStart = Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds;
  return sql`(select ${rateLimits.count} from ${rateLimits} where ${rateLimits.key} = ${`${rule.name}:${key}`} and ${rateLimits.windowStart} = ${windowStart}) <= ${rule.limit}`;
}

/** Whether a hit counted by `hitStatement` is within the rule's limit (its rows, from the batch's results). */
export const withinLimit = (rule: Limit, rows: { count: number }[] | undefined) => (rows?.[0]?.count ?? 0) <= rule.limit;

/** What `countInOrder` counted. */
export type OrderedHits = {
  /** The rule that refuses (`first` wins when both would), or null when both allow. */
  refused: Limit | null;
  /**
   * The statements that take back exactly the hits counted: each counter goes
   * one down in the window it was counted in, so the counts are as if this request had not come.
   */
  undo(db: Database): BatchItem<"sqlite">[];
};

/**
 * Two limits applied in order, in one round trip: counts a hit for `first`, and for `then` only when
 * `first` is still within its limit, so a request refused by `first` is not counted against `then`.
 * One batch (one transaction): its second statement reads the count the first has just written.
 */
export async function countInOrder(
  db: Database,
  first: [Limit, string],
  then: [Limit, string],
  { nowMs = Date.now() }: { nowMs?: number } = {},
): Promise<OrderedHits> {
  const at = ([rule, key]: [Limit, string]) => ({
    id: `${rule.name}:${key}`,
    windowStart: Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds,
  });
  const a = at(first);
  const b = at(then);
  const firstWithin = withinLimitSql(first[0], first[1], nowMs);
  const [firstRows, thenRows] = await db.batch([
    hitStatement(db, first[0], first[1], undefined, nowMs),
    hitStatement(db, then[0], then[1], firstWithin, nowMs),
  ]);
  const refused = !withinLimit(first[0], firstRows) ? first[0] : !withinLimit(then[0], thenRows) ? then[0] : null;
  const takeBack = (on: Database, hit: { id: string; windowStart: number }) =>
    on
      .update(rateLimits)
      .set({ count: sql`${rateLimits.count} - 1` })
      .where(and(eq(rateLimits.key, hit.id), eq(rateLimits.windowStart, hit.windowStart), gt(rateLimits.count, 0)));
  return {
    refused,
    undo: (on) => [...(firstRows.length ? [takeBack(on, a)] : []), ...(thenRows.length ? [takeBack(on, b)] : [])],
  };
}

/**
 * The bucket a client address is limited by: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so per-/128 limits would be no limit at all).
 */
export function addressBucket(address: string): string {
  const ip = address.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ip.includes(":")) return ip || "unknown";
  // IPv4-mapped IPv6 (::ffff:192.0.2.1) is the IPv4 address.
  const mapped = /^(?:0*:)*:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return mapped[1];
  let groups: string[];
  if (ip.includes("::")) {
    const [head, tail] = ip.split("::", 2);
    const h = head ? head.split(":") : [];
    const t = tail ? tail.split(":") : [];
    groups = [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  } else {
    groups = ip.split(":");
  }
  if (groups.length < 4 || groups.slice(0, 4).some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The headers that name the client's address, the first one present winning. */
export const ADDRESS_HEADERS = ["cf-connecting-ip", "x-real-ip"] as const;

/** The client's address bucket (see addressBucket): the key of every per-address limit. */
export function clientAddress(c: RequestHeaders) {
  const named = ADDRESS_HEADERS.map((name) => c.req.header(name)).find((value) => value !== undefined);
  return addressBucket(named ?? "local");
}

/** The key of a per-email limit: the email with the client's address bucket, never the email alone. */
export function emailAtAddress(email: string, c: RequestHeaders) {
  return `${email.toLowerCase()}|${clientAddress(c)}`;
}

/** Applies every rule to its key; throws 429 when any is over its limit. */
export async function enforce(c: RequestWithDb, checks: [Limit, string][]) {
  const results = await Promise.all(checks.map(([rule, key]) => hit(c.var.db, rule, key)));
  if (results.some((ok) => !ok)) throw tooManyRequests();
}

/** What `enforceWithRetryAfter` needs of a request: its database and a way to set an answer header. */
type RequestWithDbAndHeaders = RequestWithDb & { header(name: string, value: string): void };

/**
 * Counts one hit of `key` against `rule`; past the limit, answers 429 with `Retry-After` (the seconds
 * left in the window) and the message `refusal(seconds)` gives.
 */
export async function enforceWithRetryAfter(c: RequestWithDbAndHeaders, rule: Limit, key: string, refusal: (seconds: number) => string, nowMs = Date.now()) {
  if (await hit(c.var.db, rule, key, nowMs)) return;
  const windowStart = Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds;
  const seconds = Math.max(1, windowStart + rule.windowSeconds - Math.floor(nowMs / 1000));
  c.header("Retry-After", String(seconds));
  throw tooManyRequests(refusal(seconds));
}

/**
 * Per-address limits answer 429. Limits keyed by an email alone never do, since anyone can send a
 * victim's email: per-email request limits are keyed by (email, address), and the per-email mail
 * cap (MAIL_PER_EMAIL) silently stops sending more mail while the answer stays the same.
 */
export const PUBLIC_ACCOUNT_LIMITS = {
  perAddress: { name: "public-account:ip", limit: 30, windowSeconds: 60 },
  perEmail: { name: "public-account:email-ip", limit: 10, windowSeconds: 60 },
} satisfies Record<string, Limit>;

/** Account mail (confirmation, recovery) to one address: at most this many an hour, the rest is not sent. */
export const MAIL_PER_EMAIL: Limit = { name: "mail:email", limit: 5, windowSeconds: 3600 };

/** Whether one more account mail may go to `email` this hour (counts it). */
export const mayMail = (db: Database, email: string) => hit(db, MAIL_PER_EMAIL, email.toLowerCase());

/** The mail cap's count for `email`, as a statement of the caller's batch (see hitStatement). */
export const mailCapStatement = (db: Database, email: string, when?: SQL) => hitStatement(db, MAIL_PER_EMAIL, email.toLowerCase(), when);

/** Counters of windows that ended this long ago are deleted by the daily job (the longest window is an hour). */
export const RATE_LIMIT_RETENTION_SECONDS = 86_400;

/** Deletes counter rows whose window started more than a day ago; returns how many. */
export async function pruneRateLimits(db: Database, nowMs = Date.now()) {
  const cutoff = Math.floor(nowMs / 1000) - RATE_LIMIT_RETENTION_SECONDS;
  const gone = await db.delete(rateLimits).where(lt(rateLimits.windowStart, cutoff)).returning({ key: rateLimits.key });
  return gone.length;
}
