// Scheduled runs: every log line of a run carries its run id (and cron and job); each job's last run
// and last error land in job_runs; /api/health shows them to admins only.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Bindings } from "../env";
import worker from "../index";
import { jobRuns } from "../db/schema";
import { log } from "../lib/log";
import { call, db, signUpAndSignIn } from "../test/helpers";
import { FREQUENT_CRON, jobsByCron } from "./index";

type Line = Record<string, unknown>;

/** Every structured line written to the console while `fn` runs. */
async function captureLines(fn: () => Promise<void>): Promise<Line[]> {
  const lines: Line[] = [];
  const grab = (...args: unknown[]) => {
    try {
      lines.push(JSON.parse(String(args[0])));
    } catch {
      // not one of ours
    }
  };
  const spies = [vi.spyOn(console, "log").mockImplementation(grab), vi.spyOn(console, "warn").mockImplementation(grab), vi.spyOn(console, "error").mockImplementation(grab)];
  try {
    await fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return lines;
}

async function fire(cron: string, scheduledTime = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime }), env as unknown as Bindings, ctx);
  await waitOnExecutionContext(ctx);
}

const original = jobsByCron[FREQUENT_CRON];
let failNext = true;
beforeEach(async () => {
  await db().delete(jobRuns);
  failNext = true;
  jobsByCron[FREQUENT_CRON] = [
    {
      name: "flaky",
      run: async () => {
        // A provider or service deep inside a job logs without a context of its own.
        log(null, "warn", "upstream answered slowly", { upstream: "example" });
        if (failNext) throw new Error("upstream answered 502 for /v1/calls");
      },
    },
    { name: "steady", run: async () => log(null, "info", "steady work done") },
  ];
});
afterEach(() => {
  jobsByCron[FREQUENT_CRON] = original;
});

describe("scheduled runs' log lines", () => {
  it("carry one run id per run, the cron and the job, on every line, including those of code that passes no context", async () => {
    const first = await captureLines(() => fire(FREQUENT_CRON));
    const second = await captureLines(() => fire(FREQUENT_CRON));
    for (const lines of [first, second]) {
      expect(lines.length).toBeGreaterThanOrEqual(5); // started, warn, failed, steady's line, finished
      const ids = new Set(lines.map((l) => l.requestId));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.every((l) => l.cron === FREQUENT_CRON)).toBe(true);
    }
    expect(first[0].requestId).not.toBe(second[0].requestId);
    const warn = first.find((l) => l.message === "upstream answered slowly")!;
    expect(warn).toMatchObject({ level: "warn", job: "flaky", upstream: "example" });
    expect(first.find((l) => l.message === "job failed")).toMatchObject({ level: "error", job: "flaky", error: "upstream answered 502 for /v1/calls" });
    expect(first.find((l) => l.message === "steady work done")).toMatchObject({ job: "steady" });
  });
});

describe("job_runs", () => {
  it("stores each job's last run and last error, and keeps the error after a later success", async () => {
    const lines = await captureLines(() => fire(FREQUENT_CRON, Date.UTC(2026, 10, 1, 10, 0)));
    const runId = lines[0].requestId;
    let rows = await db().select().from(jobRuns);
    const flaky = rows.find((r) => r.job === "flaky")!;
    expect(flaky).toMatchObject({ cron: FREQUENT_CRON, lastRunId: runId, lastOk: false, lastError: "upstream answered 502 for /v1/calls", lastErrorRunId: runId });
    expect(flaky.lastErrorAt).toBe(flaky.lastFinishedAt);
    expect(rows.find((r) => r.job === "steady")).toMatchObject({ lastRunId: runId, lastOk: true, lastError: null, lastErrorAt: null });

    failNext = false;
    const again = await captureLines(() => fire(FREQUENT_CRON));
    rows = await db().select().from(jobRuns);
    expect(rows).toHaveLength(2);
    const after = rows.find((r) => r.job === "flaky")!;
    expect(after).toMatchObject({ lastRunId: again[0].requestId, lastOk: true, lastError: "upstream answered 502 for /v1/calls", lastErrorRunId: runId });
    expect(after.lastFinishedAt > flaky.lastFinishedAt).toBe(true);
  });
});

describe("GET /api/health and job runs", () => {
  it("shows admins each job's last run and last error, and nobody else sees any of it", async () => {
    await captureLines(() => fire(FREQUENT_CRON));
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const user = await signUpAndSignIn();

    const asAdmin = await call("/api/health", { token: admin.accessToken });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.jobs).toEqual([
      expect.objectContaining({ job: "flaky", cron: FREQUENT_CRON, lastOk: false, lastError: "upstream answered 502 for /v1/calls", lastErrorAt: expect.any(String) }),
      expect.objectContaining({ job: "steady", lastOk: true, lastError: null }),
    ]);
    expect(Date.parse(asAdmin.body.jobs[0].lastRunAt)).not.toBeNaN();

    for (const token of [undefined, user.accessToken, "not-a-token"]) {
      const res = await call("/api/health", { token });
      expect(res.status, `token ${token}`).toBe(200);
      expect(res.body.jobs).toBeUndefined();
      // Without the request id: a random UUID may hold "502".
      expect(JSON.stringify({ ...res.body, requestId: undefined })).not.toMatch(/502|flaky|upstream/);
    }
  });
});
