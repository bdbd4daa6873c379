// D1's statement limits, proved on the local D1 (which enforces both, as D1 does): at most 100 bound
// parameters a statement, and LIKE patterns of at most 50 bytes. Every query whose parameter count
// would grow with its input takes a list as one JSON parameter (json_each) instead, and none builds a
// LIKE pattern from input: each is tested here at the sizes around the limit and at its input's maximum.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { FAILURE_ENDED_REASON_PATTERNS } from "@shared/call-outcomes";
import { alertNotifications, apiKeys, callLogs, deletedAccounts, profiles } from "../db/schema";
import { parseConfig } from "../env";
import { createProviders } from "../providers";
import { closeGoneAccounts } from "../services/admin/gone-accounts";
import { indexCalls } from "../services/call-search";
import { signedHeaders } from "../webhooks/signing";
import { call, db, shardOf, signUpAndSignIn, testShards, uniqueEmail } from "../test/helpers";

describe("the local D1 enforces D1's limits (so the tests below can fail)", () => {
  it("refuses a statement of 101 bound parameters and a LIKE pattern over 50 bytes", async () => {
    const params = Array.from({ length: 101 }, (_, i) => i);
    await expect(env.DB.prepare(`SELECT 1 WHERE 1 IN (${params.map(() => "?").join(", ")})`).bind(...params).all()).rejects.toThrow(/too many SQL variables/);
    await expect(env.DB.prepare("SELECT 1 WHERE 'a' LIKE ?").bind(`%${"x".repeat(50)}%`).all()).rejects.toThrow(/pattern too complex/);
  });
});

describe("POST /api/alerts/bell/read with as many ids as its schema allows", () => {
  /** `n` unread bell rows of the account; their ids. */
  async function unread(userId: string, n: number): Promise<number[]> {
    const at = new Date().toISOString();
    const rows = Array.from({ length: n }, (_, i) => ({ userId, alertId: i + 1, kind: "triggered", title: `Alert ${i}`, severity: "warning", createdAt: at }));
    const ids: number[] = [];
    const shard = await shardOf(userId);
    for (let i = 0; i < rows.length; i += 10) {
      ids.push(...(await shard.insert(alertNotifications).values(rows.slice(i, i + 10)).returning({ id: alertNotifications.id })).map((r) => r.id));
    }
    return ids;
  }

  for (const n of [1, 99, 100, 200]) {
    it(`marks ${n} of them read, and only those`, async () => {
      const s = await signUpAndSignIn();
      const ids = await unread(s.userId, n + 3);
      const res = await call("/api/alerts/bell/read", { method: "POST", token: s.accessToken, json: { ids: ids.slice(0, n) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.unread).toBe(3);
    });
  }
});

describe("deleting every account under one email", () => {
  // An email registered again after its account was deleted at the identity provider has an account
  // (a profile) per registration; the deletion takes them all, in one batch.
  for (const n of [1, 99, 100, 150]) {
    it(`deletes ${n} accounts under the email, and records each one's id`, async () => {
      const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
      const email = uniqueEmail("many");
      const ids = Array.from({ length: n }, () => crypto.randomUUID());
      for (let i = 0; i < n; i += 10) await db().insert(profiles).values(ids.slice(i, i + 10).map((id) => ({ id, email })));
      const res = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.deleted.profiles).toBe(n);
      expect(await db().select().from(profiles).where(eq(profiles.email, email))).toEqual([]);
      const kept = await db().select({ userId: deletedAccounts.userId }).from(deletedAccounts);
      const keptIds = new Set(kept.map((r) => r.userId));
      expect(ids.filter((id) => !keptIds.has(id))).toEqual([]);
    });
  }
});

describe("the provider sync of accounts gone at the identity provider", () => {
  // Every account holding a live key is asked about, and those gone are closed in one batch: both
  // lists are one JSON parameter whatever their length.
  for (const n of [1, 99, 100, 250]) {
    it(`asks about and closes ${n} gone accounts`, async () => {
      const ids = Array.from({ length: n }, () => crypto.randomUUID());
      for (let i = 0; i < n; i += 10) {
        // Profiles without an identity-provider account: deleted there.
        await db().insert(profiles).values(ids.slice(i, i + 10).map((id) => ({ id, email: uniqueEmail("gone") })));
        await db()
          .insert(apiKeys)
          .values(ids.slice(i, i + 10).map((userId) => ({ id: `key_${crypto.randomUUID().replace(/-/g, "")}`, userId, name: "gone", scopes: [], prefix: "vao_gone", secretHash: crypto.randomUUID() })));
      }
      const result = await closeGoneAccounts(db(), testShards(), createProviders(parseConfig(env as unknown as Record<string, unknown>), db()).identity, new Date());
      expect(new Set(result.gone)).toEqual(new Set(ids));
      expect(result.keysRevoked).toBe(n);
    });
  }
});

describe("indexing calls for the search", () => {
  for (const n of [1, 99, 100, 250]) {
    it(`indexes ${n} calls read by their call ids in one statement`, async () => {
      const s = await signUpAndSignIn();
      const callIds = Array.from({ length: n }, () => `c-${crypto.randomUUID()}`);
      const at = new Date().toISOString();
      const rows = callIds.map((callId) => ({ userId: s.userId, callId, assistantId: "asst-x", direction: "inbound" as const, status: "ended", startTime: at }));
      // The account's calls and their index are in its shard (decision 076).
      const shard = await shardOf(s.userId);
      for (let i = 0; i < n; i += 5) await shard.insert(callLogs).values(rows.slice(i, i + 5));
      expect(await indexCalls(shard, env.CALL_TEXT, callIds)).toBe(n);
    });
  }
});

describe("the local receiver finds its endpoints by their exact path, whatever the inbox name's length", () => {
  /** An endpoint of a new Pro account pointing at `url`; its secret. */
  async function endpointAt(url: string): Promise<string> {
    const s = await signUpAndSignIn();
    const res = await call("/api/webhook-endpoints", { method: "POST", token: s.accessToken, json: { url, events: ["call.started"] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.secret as string;
  }

  const deliver = async (inbox: string, secret: string) => {
    const body = JSON.stringify({ type: "call.started", data: {} });
    const headers = await signedHeaders([secret], `msg_${crypto.randomUUID()}`, Math.floor(Date.now() / 1000), body);
    return call(`/api/local/webhook-inbox/${inbox}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body });
  };

  for (const length of [1, 40, 64]) {
    it(`an inbox name of ${length} characters is received and verified`, async () => {
      const inbox = `${crypto.randomUUID().replace(/-/g, "")}${"x".repeat(64)}`.slice(0, length);
      const secret = await endpointAt(`http://127.0.0.1:8787/api/local/webhook-inbox/${inbox}?fail=0`);
      const res = await deliver(inbox, secret);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ received: true, verified: true });
    });
  }

  it("an endpoint whose path only starts or ends with the inbox's is not the inbox's", async () => {
    const inbox = `exact-${crypto.randomUUID()}`;
    const longer = await endpointAt(`http://127.0.0.1:8787/api/local/webhook-inbox/${inbox}-more`);
    const nested = await endpointAt(`https://hooks.example.com/prefix/api/local/webhook-inbox/${inbox}`);
    for (const secret of [longer, nested]) {
      const res = await deliver(inbox, secret);
      expect(res.body).toEqual({ received: true, verified: false });
    }
    const page = await call(`/api/local/webhook-inbox?inbox=${inbox}`);
    expect(page.body.deliveries.map((d: { verifyError: string }) => d.verifyError)).toEqual(["no endpoint points at this inbox", "no endpoint points at this inbox"]);
  });
});

describe("LIKE patterns", () => {
  it("the only ones left are constants inside D1's 50 bytes (an input is matched by = , a range or the search index)", () => {
    for (const pattern of FAILURE_ENDED_REASON_PATTERNS) expect(new TextEncoder().encode(pattern).length, pattern).toBeLessThanOrEqual(50);
  });
});
