// Read replicas through D1 sessions (decision 052): a person's requests start from the bookmark
// their client returns and answer the newest one; webhooks, ingestion and jobs use the primary.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKMARK_HEADER, parseBookmarks } from "@shared/d1-bookmarks";
import type { Bindings } from "../env";
import worker from "../index";
import { DAILY_CRON } from "../jobs";
import { call, signUpAndSignIn } from "../test/helpers";
import { sessionStart } from "./sessions";

/** The real DB binding, recording the constraint of every session opened on it and counting queries sent outside one. */
function recordingD1(real: D1Database = env.DB) {
  const seen = { constraints: [] as (string | undefined)[], outsideSessions: 0 };
  const binding = new Proxy(real, {
    get(target, key) {
      if (key === "withSession") {
        return (constraint?: string) => {
          seen.constraints.push(constraint);
          return target.withSession(constraint);
        };
      }
      if (key === "prepare" || key === "batch" || key === "exec") seen.outsideSessions++;
      const v = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { binding, seen };
}

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;
let alice: Session;

beforeAll(async () => {
  alice = await signUpAndSignIn();
});

const agentBody = (name: string) => ({
  name,
  business_description: "A family dental clinic in Miami with three chairs.",
  services: "Cleanings, fillings, whitening and regular check-ups.",
  agent_instructions: "Greet callers warmly, answer questions and book appointments.",
});

describe("a person's requests read their own writes", () => {
  it("answers a write with the session's bookmark, and the next request, sent with it, starts there and sees the write", async () => {
    const d1 = recordingD1();
    const created = await call("/api/agents", { method: "POST", token: alice.accessToken, json: agentBody("Bookmarked desk"), bindings: { DB: d1.binding } });
    expect(created.status).toBe(201);
    const header = created.headers.get(BOOKMARK_HEADER);
    expect(header).toMatch(/^DB=\S+$/);
    const written = parseBookmarks(header).DB;
    // The write's request had no bookmark: any replica, D1 sends the write to the primary.
    expect(d1.seen.constraints).toEqual(["first-unconstrained"]);

    const read = await call("/api/agents", { token: alice.accessToken, headers: { [BOOKMARK_HEADER]: header! }, bindings: { DB: d1.binding } });
    expect(read.status).toBe(200);
    expect(d1.seen.constraints).toEqual(["first-unconstrained", written]);
    expect(read.body.agents.map((a: { name: string }) => a.name)).toContain("Bookmarked desk");
    // Never older than the bookmark it started from.
    expect(parseBookmarks(read.headers.get(BOOKMARK_HEADER)).DB >= written).toBe(true);
  });

  it("ignores a bookmark header of any other shape, starting unconstrained, and still answers", async () => {
    const bad = ["garbage", "DB=", "DB=has space", "db=0001", "DB=0001,", `DB=${"0".repeat(300)}`, Array.from({ length: 9 }, (_, i) => `DB${i}=01`).join(",")];
    for (const value of bad) {
      const d1 = recordingD1();
      const res = await call("/api/agents", { token: alice.accessToken, headers: { [BOOKMARK_HEADER]: value }, bindings: { DB: d1.binding } });
      expect(res.status, value).toBe(200);
      expect(d1.seen.constraints, value).toEqual(["first-unconstrained"]);
    }
  });

  it("starts from the newest bookmark a header names for the database, and ignores other databases' entries", async () => {
    const d1 = recordingD1();
    const res = await call("/api/agents", {
      token: alice.accessToken,
      headers: { [BOOKMARK_HEADER]: "DB=00000000-00000001-00000000-00,OTHER_DB=00000009-00000000-00000000-00,DB=00000000-00000002-00000000-00" },
      bindings: { DB: d1.binding },
    });
    expect(res.status).toBe(200);
    expect(d1.seen.constraints).toEqual(["00000000-00000002-00000000-00"]);
  });
});

describe("webhooks, ingestion and jobs use the primary", () => {
  it("opens every vendor's webhook and the ingestion feed on the primary, whatever bookmark they send", async () => {
    for (const path of ["/api/webhooks/vapi", "/api/webhooks/aircall", "/api/webhooks/stripe", "/api/ingest/appointments", "/api/ingest/leads"]) {
      const d1 = recordingD1();
      await call(path, { method: "POST", json: {}, headers: { [BOOKMARK_HEADER]: "DB=00000000-00000001-00000000-00" }, bindings: { DB: d1.binding } });
      expect(d1.seen.constraints.length, path).toBeGreaterThan(0);
      expect(new Set(d1.seen.constraints), path).toEqual(new Set(["first-primary"]));
    }
  });

  it("decides on the path alone: only /api/webhooks/* and /api/ingest/* are primary", () => {
    const bookmarks = { DB: "00000000-00000001-00000000-00" };
    expect(sessionStart("/api/webhooks/vapi", bookmarks)).toBe("first-primary");
    expect(sessionStart("/api/ingest", bookmarks)).toBe("first-primary");
    expect(sessionStart("/api/agents", bookmarks)).toEqual(bookmarks);
    expect(sessionStart("/api/webhooksx", bookmarks)).toEqual(bookmarks);
    expect(sessionStart("/api/call-logs", {})).toEqual({});
  });

  it("runs the scheduled jobs on the primary, every query inside that session", async () => {
    const d1 = recordingD1();
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: DAILY_CRON, scheduledTime: Date.UTC(2026, 10, 22, 5, 15) }),
      { ...env, DB: d1.binding } as unknown as Bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(d1.seen.constraints).toEqual(["first-primary"]);
    expect(d1.seen.outsideSessions).toBe(0);
  });
});
