// An account's own data in a database of its own (decision 053): with ACCOUNT_DATABASES pointing one
// account at a second D1 database (ACCOUNT_DB_TEST, configured for tests only in vitest.config.ts),
// that account's agents and call logs are written to and read from it, the main database holds none
// of them, and no other account reads them.
import { applyD1Migrations, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKMARK_HEADER, parseBookmarks } from "@shared/d1-bookmarks";
import type { AppConfig } from "../env";
import { call, db, signUpAndSignIn, type Json } from "../test/helpers";
import { insertCallLogs } from "../test/factories";
import { accountBinding } from "./account-database";
import { createDb } from "./client";
import { agents, callLogs, profiles } from "./schema";

const second = (env as unknown as { ACCOUNT_DB_TEST: D1Database }).ACCOUNT_DB_TEST;
const secondDb = () => createDb(second);

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;
let alice: Session;
let bob: Session;
let bindings: Record<string, unknown>;

beforeAll(async () => {
  await applyD1Migrations(second, env.TEST_MIGRATIONS);
  alice = await signUpAndSignIn();
  bob = await signUpAndSignIn();
  // Alice's account lives in the second database; Bob's, like every other, in DB.
  bindings = { ACCOUNT_DATABASES: JSON.stringify({ [alice.userId]: "ACCOUNT_DB_TEST" }) };
  // An account's database holds a copy of its profile row: the account's own tables reference it.
  await secondDb().insert(profiles).values(await db().select().from(profiles).where(eq(profiles.id, alice.userId)));
});

const agentBody = (name: string) => ({
  name,
  business_description: "A family dental clinic in Miami with three chairs.",
  services: "Cleanings, fillings, whitening and regular check-ups.",
  agent_instructions: "Greet callers warmly, answer questions and book appointments.",
});

const as = (s: Session, path: string, init: { method?: string; json?: unknown } = {}) => call(path, { ...init, token: s.accessToken, bindings });

describe("an account mapped to a database of its own", () => {
  it("writes its agents there, reads them back from there, and leaves the main database and other accounts without them", async () => {
    const created = await as(alice, "/api/agents", { method: "POST", json: agentBody("Second-database desk") });
    expect(created.status).toBe(201);
    const id = created.body.agent.id as number;

    // (a) in the second database, (b) not in the main one
    expect((await secondDb().select().from(agents).where(eq(agents.userId, alice.userId))).map((a) => a.name)).toEqual(["Second-database desk"]);
    expect(await db().select().from(agents).where(eq(agents.userId, alice.userId))).toEqual([]);

    // Alice's own reads come from there: the list, one agent, an update.
    expect((await as(alice, "/api/agents")).body.agents.map((a: Json) => a.name)).toEqual(["Second-database desk"]);
    expect((await as(alice, `/api/agents/${id}`)).status).toBe(200);
    const renamed = await as(alice, `/api/agents/${id}`, { method: "PUT", json: { name: "Renamed desk" } });
    expect(renamed.status).toBe(200);
    expect((await secondDb().select({ name: agents.name }).from(agents).where(eq(agents.id, id))).map((a) => a.name)).toEqual(["Renamed desk"]);

    // (c) Bob, in the main database, never sees it, whatever he asks.
    const bobs = await as(bob, "/api/agents", { method: "POST", json: agentBody("Main-database desk") });
    expect(bobs.status).toBe(201);
    expect((await as(bob, "/api/agents")).body.agents.map((a: Json) => a.name)).toEqual(["Main-database desk"]);
    // Ids count per database, so the same id may name Bob's own agent: never Alice's.
    const sameId = await as(bob, `/api/agents/${id}`);
    expect(sameId.status === 404 || sameId.body.agent.name === "Main-database desk", JSON.stringify(sameId.body)).toBe(true);
    expect(await secondDb().select().from(agents).where(eq(agents.userId, bob.userId))).toEqual([]);
  });

  it("reads its call logs from its own database only, and another account never reads them", async () => {
    const [mine, leftBehind] = await insertCallLogs(alice.userId, 2);
    // One of Alice's calls moves to her database; the other stays in DB, where her reads no longer look.
    await secondDb().insert(callLogs).values(mine);
    await db().delete(callLogs).where(eq(callLogs.id, mine.id));
    await insertCallLogs(bob.userId, 1);

    const alices = await as(alice, "/api/call-logs");
    expect(alices.status).toBe(200);
    expect(alices.body.logs.map((l: Json) => l.id)).toEqual([mine.id]);
    expect(alices.body.logs.map((l: Json) => l.id)).not.toContain(leftBehind.id);

    const bobs = await as(bob, "/api/call-logs");
    expect(bobs.body.logs).toHaveLength(1);
    expect(bobs.body.logs.map((l: Json) => l.id)).not.toContain(mine.id);
  });

  it("answers a bookmark per database the request touched, and sends each back to its own database", async () => {
    const first = await as(alice, "/api/agents");
    const marks = parseBookmarks(first.headers.get(BOOKMARK_HEADER));
    // DB for the sign-in and profile, the second database for the agents.
    expect(Object.keys(marks).sort()).toEqual(["ACCOUNT_DB_TEST", "DB"]);
    const constraints: Record<string, string | undefined> = {};
    const recording = (name: string, real: D1Database) =>
      new Proxy(real, {
        get(target, key) {
          if (key === "withSession") return (c?: string) => ((constraints[name] = c), target.withSession(c));
          const v = Reflect.get(target, key, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      });
    const again = await call("/api/agents", {
      token: alice.accessToken,
      headers: { [BOOKMARK_HEADER]: first.headers.get(BOOKMARK_HEADER)! },
      bindings: { ...bindings, DB: recording("DB", env.DB), ACCOUNT_DB_TEST: recording("ACCOUNT_DB_TEST", second) },
    });
    expect(again.status).toBe(200);
    expect(constraints).toEqual({ DB: marks.DB, ACCOUNT_DB_TEST: marks.ACCOUNT_DB_TEST });
  });
});

describe("accountBinding", () => {
  const config = (over: Partial<AppConfig>) => ({ APP_ENV: "development", ...over }) as AppConfig;

  it("names the mapped binding, else DB; production keeps every account in DB", () => {
    const map = { "user-1": "ACCOUNT_DB_TEST" };
    expect(accountBinding(config({ ACCOUNT_DATABASES: map }), "user-1")).toBe("ACCOUNT_DB_TEST");
    expect(accountBinding(config({ ACCOUNT_DATABASES: map }), "user-2")).toBe("DB");
    expect(accountBinding(config({}), "user-1")).toBe("DB");
    expect(accountBinding(config({ ACCOUNT_DATABASES: map }), "toString")).toBe("DB");
    expect(accountBinding(config({ APP_ENV: "production", ACCOUNT_DATABASES: map }), "user-1")).toBe("DB");
  });

  it("refuses a map naming a binding the Worker does not have: every request answers 503", async () => {
    const res = await call("/api/agents", { token: alice.accessToken, bindings: { ACCOUNT_DATABASES: JSON.stringify({ [alice.userId]: "NO_SUCH_DB" }) } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/ACCOUNT_DATABASES: NO_SUCH_DB/);
  });
});
