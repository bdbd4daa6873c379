import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "./client";
import { countInOrder, type Limit } from "./rate-limit";
import { rateLimits } from "./schema";
import { D1Timer } from "./timed-d1";

const perMinute: Limit = { name: "test-order:minute", limit: 2, windowSeconds: 60 };
const perDay: Limit = { name: "test-order:day", limit: 3, windowSeconds: 86_400 };

const countOf = async (rule: Limit, key: string) =>
  (await createDb(env.DB).query.rateLimits.findFirst({ where: eq(rateLimits.key, `${rule.name}:${key}`) }))?.count ?? 0;

/** The rule that refuses, or null when both allow (countInOrder, counted unconditionally). */
const hitInOrder = async (db: ReturnType<typeof createDb>, first: [Limit, string], then: [Limit, string], nowMs: number) =>
  (await countInOrder(db, first, then, { nowMs })).refused;

describe("countInOrder", () => {
  it("counts both limits in one round trip, and a hit the first refuses not against the second", async () => {
    const key = crypto.randomUUID();
    const timer = new D1Timer();
    const db = createDb(timer.wrap(env.DB));
    const now = Date.UTC(2026, 2, 3, 12, 0, 10);
    const hit = () => hitInOrder(db, [perMinute, key], [perDay, key], now);

    expect(await hit()).toBeNull();
    expect(timer.trips).toBe(1);
    expect(await hit()).toBeNull();
    // The third in the same minute: the per-minute limit refuses, and the daily count stays at 2.
    expect(await hit()).toBe(perMinute);
    expect(await countOf(perMinute, key)).toBe(3);
    expect(await countOf(perDay, key)).toBe(2);

    // A minute later the per-minute window is new; the daily cap (3) then refuses the fourth counted hit.
    const later = now + 60_000;
    expect(await hitInOrder(db, [perMinute, key], [perDay, key], later)).toBeNull();
    expect(await hitInOrder(db, [perMinute, key], [perDay, key], later)).toBe(perDay);
    expect(await countOf(perDay, key)).toBe(4);
    // When both would refuse, the first one answers.
    expect(await hitInOrder(db, [perMinute, key], [perDay, key], later)).toBe(perMinute);
    expect(await countOf(perDay, key)).toBe(4);
  });
});
