import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Bindings } from "../env";
import worker from "../index";
import { DAILY_CRON, FREQUENT_CRON, jobsByCron, runJobs, type JobContext } from "./index";

describe("scheduled() job dispatch", () => {
  const original = { ...jobsByCron };
  afterEach(() => {
    jobsByCron[DAILY_CRON] = original[DAILY_CRON];
    jobsByCron[FREQUENT_CRON] = original[FREQUENT_CRON];
  });

  it("runs the jobs registered for the firing cron expression, with the scheduled time", async () => {
    const seen: { name: string; now: string }[] = [];
    jobsByCron[DAILY_CRON] = [{ name: "daily", run: async (ctx: JobContext) => void seen.push({ name: "daily", now: ctx.now.toISOString() }) }];
    jobsByCron[FREQUENT_CRON] = [{ name: "frequent", run: async () => void seen.push({ name: "frequent", now: "" }) }];
    const scheduledTime = Date.UTC(2026, 10, 22, 5, 15);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: DAILY_CRON, scheduledTime }), env as unknown as Bindings, ctx);
    await waitOnExecutionContext(ctx);
    expect(seen).toEqual([{ name: "daily", now: new Date(scheduledTime).toISOString() }]);
  });

  it("keeps running the other jobs when one fails, and reports each outcome", async () => {
    jobsByCron[FREQUENT_CRON] = [
      { name: "broken", run: async () => Promise.reject(new Error("boom")) },
      { name: "fine", run: async () => "ok" },
    ];
    const results = await runJobs(FREQUENT_CRON, { db: {} as JobContext["db"], shards: [], config: {} as JobContext["config"], now: new Date() });
    expect(results).toEqual([
      { name: "broken", ok: false, error: "boom" },
      { name: "fine", ok: true },
    ]);
  });

  it("refuses to run with an invalid environment", async () => {
    const ctx = createExecutionContext();
    await expect(
      worker.scheduled(createScheduledController({ cron: DAILY_CRON }), { ...env, APP_ENV: "staging" } as never, ctx),
    ).rejects.toThrow(/Invalid environment: APP_ENV/);
  });
});
