// Fixed-window rate limits kept in D1, so they hold across isolates.
import { sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../env";
import { tooManyRequests } from "./errors";

export type Limit = { name: string; limit: number; windowSeconds: number };

/** Counts one hit for `key` and reports whether it is still within the limit. */
export async function hit(db: Database, rule: Limit, key: string, nowMs = Date.now()): Promise<boolean> {
  const windowStart = Math.floor(nowMs / 1000 / rule.windowSeconds) * rule.windowSeconds;
  const id = `${rule.name}:${key}`;
  const row = await db.get<{ count: number }>(sql`
    insert into rate_limits (key, window_start, count) values (${id}, ${windowStart}, 1)
    on conflict(key) do update set
      count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
      window_start = excluded.window_start
    returning count`);
  return (row?.count ?? 0) <= rule.limit;
}

/** The client's address as a rate-limit key; an IPv6 address counts by its /64 (one subscriber's block). */
export function clientAddress(c: Context<AppEnv>) {
  const ip = c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? "local";
  return ip.includes(":") ? ipv6Prefix64(ip) : ip;
}

/** The first four groups of an IPv6 address, expanded ("2001:db8::1" -> "2001:db8:0:0::/64"). */
export function ipv6Prefix64(ip: string): string {
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Applies every rule to its key; throws 429 when any is over its limit. */
export async function enforce(c: Context<AppEnv>, checks: [Limit, string][]) {
  const results = await Promise.all(checks.map(([rule, key]) => hit(c.var.db, rule, key)));
  if (results.some((ok) => !ok)) throw tooManyRequests();
}

export const PUBLIC_ACCOUNT_LIMITS = {
  perAddress: { name: "public-account:ip", limit: 30, windowSeconds: 60 },
  perEmail: { name: "public-account:email", limit: 10, windowSeconds: 60 },
} satisfies Record<string, Limit>;
