// countInOrder's undo: it leaves the counters as if the request had not come, whichever window it
// was counted in.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "./client";
import { countInOrder, type Limit } from "./rate-limit";
import { rateLimits } from "./schema";

const perMinute: Limit = { name: "test-cond:minute", limit: 2, windowSeconds: 60 };
const perDay: Limit = { name: "test-cond:day", limit: 3, windowSeconds: 86_400 };
const db = () => createDb(env.DB);

const rowOf = (rule: Limit, key: string) => db().query.rateLimits.findFirst({ where: eq(rateLimits.key, `${rule.name}:${key}`) });
const countsOf = async (key: string) => [(await rowOf(perMinute, key))?.count ?? null, (await rowOf(perDay, key))?.count ?? null];

async function undo(hits: Awaited<ReturnType<typeof countInOrder>>) {
  const statements = hits.undo(db());
  if (statements.length) await db().batch(statements as [(typeof statements)[number], ...typeof statements]);
}

describe("countInOrder's undo", () => {
  it("takes back exactly what it counted: both, or the first alone when the first refused", async () => {
    const key = crypto.randomUUID();
    const now = Date.UTC(2026, 2, 3, 12, 0, 10);
    await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now });
    await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now });
    expect(await countsOf(key)).toEqual([2, 2]);
    const allowed = await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now + 60_000 });
    expect(await countsOf(key)).toEqual([1, 3]);
    await undo(allowed);
    // A new minute's window: the minute counter is back at none in it, the day's as before.
    expect(await countsOf(key)).toEqual([0, 2]);
    await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now + 60_000 });
    await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now + 60_000 });
    const refused = await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now + 60_000 });
    expect(refused.refused).toBe(perMinute);
    expect(await countsOf(key)).toEqual([3, 4]);
    await undo(refused);
    expect(await countsOf(key)).toEqual([2, 4]);
  });

  it("takes nothing back from a window that has moved on since", async () => {
    const key = crypto.randomUUID();
    const now = Date.UTC(2026, 2, 3, 12, 0, 10);
    const earlier = await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now });
    await countInOrder(db(), [perMinute, key], [perDay, key], { nowMs: now + 60_000 });
    await undo(earlier);
    // The minute counter's row now counts the next minute, which the earlier hit was not part of.
    expect(await countsOf(key)).toEqual([1, 1]);
  });
});
