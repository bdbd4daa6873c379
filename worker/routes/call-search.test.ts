// Transcript and summary search (decision 059): GET /api/call-logs/search, and the index, in each
// shard beside its calls (decision 076), kept in step with the call logs by the write paths, the
// healing pass, a rebuild and account deletion.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { d1Of } from "../db/client";
import { eachShard } from "../db/shards";
import { callLogs, deletedAccounts } from "../db/schema";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { HEAL_TEXT_READS_PER_RUN, healSearchIndex, healTextReadsPerShard, indexCalls, rebuildSearchIndex } from "../services/call-search";
import { putCallText } from "../services/call-text";
import { searchMatch } from "../db/search-index";
import { endOfCallReportBody, insertAgent, insertCallLogs, insertProfile } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;

const search = (s: Session, q: string, extra: Record<string, string> = {}) =>
  call(`/api/call-logs/search?${new URLSearchParams({ q, ...extra })}`, { token: s.accessToken });

/** The healing pass on every shard, as the cron runs it; the calls it indexed in all. */
const heal = async () => {
  const runs = await eachShard(testShards(), (shard) => healSearchIndex(db(), shard.db, env.CALL_TEXT));
  return { indexed: runs.reduce((n, r) => n + r.value.indexed, 0) };
};
/**
 * Indexes every call log from scratch. The factories date a call's updated_at at its end (in the
 * past), behind a mark an earlier healing pass may have moved on: setup rebuilds instead of healing.
 */
const reindex = () => eachShard(testShards(), (shard) => rebuildSearchIndex(db(), shard.db, env.CALL_TEXT));

/** A word no factory call says, unique to the test. */
const uniqueWord = () => `zq${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

/** The app's fetch with an execution context, waiting for what it runs after the answer (the index step). */
async function fetchAndWait(path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}


const postReport = (body: string) =>
  fetchAndWait("/api/webhooks/vapi", { method: "POST", body, headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET } });

/** Every shard's whole index (owner, phone, texts by rowid), to compare two ways of building it. */
async function indexRows() {
  const shards = await eachShard(testShards(), async (shard) => {
    const rows = await d1Of(shard.db).prepare(`SELECT CAST(rowid AS TEXT) AS k, owner, phone, summary, transcript FROM call_search ORDER BY rowid`).all();
    const docs = await d1Of(shard.db)
      .prepare(`SELECT call_log_id, CAST(doc_rowid AS TEXT) AS k, user_id, updated_at FROM call_search_docs ORDER BY call_log_id`)
      .all<{ call_log_id: number }>();
    return { rows: rows.results, docs: docs.results };
  });
  return Object.fromEntries(shards.map((r) => [r.shard, r.value]));
}

/** The search index of an account's shard, for a statement of its own. */
const indexOf = async (userId: string) => d1Of(await shardOf(userId));

describe("GET /api/call-logs/search", () => {
  it("finds the account's own calls by a transcript or summary word, never another account's", async () => {
    const [me, other] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
    const word = uniqueWord();
    const [mine] = await insertCallLogs(me.userId, 1, { summary: `Asked about ${word} frames`, transcript: "AI: Hello.\nHuman: Hi." });
    const [theirs] = await insertCallLogs(other.userId, 1, { summary: `Also asked about ${word}`, transcript: `Human: ${word} please` });
    await insertCallLogs(me.userId, 3, { summary: "Booked an eye exam.", transcript: "AI: Hello." });
    await reindex();

    const res = await search(me, word);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { log: { id: number } }) => r.log.id)).toEqual([mine.id]);
    expect(res.body.results[0].log.user_id).toBe(me.userId);
    // Scoped in the index itself, not only when the calls are read back: the match names the owner.
    const candidates = await (await indexOf(me.userId)).prepare(`SELECT rowid & 2147483647 AS id FROM call_search WHERE call_search MATCH ?`)
      .bind(searchMatch(me.userId, word))
      .all<{ id: number }>();
    expect(candidates.results.map((r) => r.id)).toEqual([mine.id]);
    const byTranscript = await search(other, word);
    expect(byTranscript.body.results.map((r: { log: { id: number } }) => r.log.id)).toEqual([theirs.id]);
  });

  it("marks the matching words in a plain-text snippet: ranges, never HTML", async () => {
    const me = await signUpAndSignIn();
    const word = uniqueWord();
    await insertCallLogs(me.userId, 1, { summary: "Booked.", transcript: `AI: Hello.\nHuman: <b>My ${word} is broken</b> & loose` });
    await reindex();
    const res = await search(me, word);
    const { text, highlights } = res.body.results[0].snippet as { text: string; highlights: [number, number][] };
    expect(text).toContain(`<b>My ${word} is broken</b> & loose`);
    expect(highlights.map(([a, b]) => text.slice(a, b))).toEqual([word]);
    expect([...text].filter((ch) => ch === "\u0002" || ch === "\u0003")).toEqual([]);
  });

  it("finds calls by phone number digits, however the number is written", async () => {
    const me = await signUpAndSignIn();
    const [call1] = await insertCallLogs(me.userId, 1, { phoneNumber: "+13055557788", summary: "One." });
    await insertCallLogs(me.userId, 1, { phoneNumber: "+13055550001", summary: "Two." });
    await reindex();
    for (const q of ["+1 (305) 555-7788", "305-555-7788", "555 7788", "7788", "1305555778"]) {
      const res = await search(me, q);
      expect(res.body.results.map((r: { log: { id: number } }) => r.log.id), q).toEqual([call1.id]);
    }
  });

  it("answers newest first, in keyset pages without a duplicate or a gap", async () => {
    const me = await signUpAndSignIn();
    const word = uniqueWord();
    const base = Date.parse("2026-05-01T12:00:00.000Z");
    const rows = [];
    for (let i = 0; i < 7; i++) {
      // Two calls in the same second: the id decides between them, as in the list.
      const at = new Date(base + Math.floor(i / 2) * 60_000).toISOString();
      rows.push(...(await insertCallLogs(me.userId, 1, { startTime: at, summary: `Call about ${word}` })));
    }
    await insertCallLogs(me.userId, 2, { summary: "Nothing to see." });
    await reindex();
    const expected = [...rows].sort((a, b) => b.startTime.localeCompare(a.startTime) || b.id - a.id).map((r) => r.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await search(me, word, { limit: "3", ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...res.body.results.map((r: { log: { id: number } }) => r.log.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(expected);
    expect(pages).toBe(3);
  });

  it("never fails on FTS5 syntax or odd characters in q, and names the field of bad input", async () => {
    const me = await signUpAndSignIn();
    await insertCallLogs(me.userId, 2, { summary: "Booked an eye exam." });
    await reindex();
    const odd = ['" "', '""', "eye\"", "eye AND", "OR OR", "NOT eye", "NEAR(eye exam)", "eye*", "* *", "owner:x", "{summary}: eye", "eye) OR (1", "^eye", "- -", "ёж", "🙂🙂", "'; DROP TABLE call_logs; --", "a".repeat(200), "((((", "summary : eye"];
    for (const q of odd) {
      const res = await search(me, q);
      expect(res.status, q).toBe(200);
      expect(Array.isArray(res.body.results), q).toBe(true);
    }
    expect((await search(me, "\"eye\"")).body.results.length).toBe(2);
    for (const [params, field] of [
      [{ q: "a" }, "q"],
      [{ q: "a".repeat(201) }, "q"],
      [{ q: "eye", limit: "0" }, "limit"],
      [{ q: "eye", cursor: "abc" }, "cursor"],
    ] as const) {
      const res = await search(me, params.q, Object.fromEntries(Object.entries(params).filter(([k]) => k !== "q")));
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(params)).toContain(field);
    }
    expect((await call("/api/call-logs/search?q=eye")).status).toBe(401);
  });

  it("costs two sequential round trips: the sign-in, then the index joined to the calls in the account's shard (decision 067)", async () => {
    const me = await signUpAndSignIn();
    const word = uniqueWord();
    await insertCallLogs(me.userId, 3, { summary: `About ${word}` });
    await reindex();
    await search(me, word);
    const res = await search(me, word);
    expect(res.body.results).toHaveLength(3);
    const trips = Number(/db-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
    expect(trips).toBe(2);
  });
});

describe("the search index in step with the call logs", () => {
  it("the healing pass reads a transcript only for a call whose index step was lost, and at most its budget a run", async () => {
    const me = await signUpAndSignIn();
    await reindex();
    const shard = await shardOf(me.userId);
    const now = Date.now();
    // Three calls whose index step was lost, and one its write indexed: all newer than the mark.
    const words = [uniqueWord(), uniqueWord(), uniqueWord(), uniqueWord()];
    const calls: Awaited<ReturnType<typeof insertCallLogs>> = [];
    for (const [i, w] of words.entries()) {
      const [c] = await insertCallLogs(me.userId, 1, { transcript: null, summary: "No words here.", updatedAt: new Date(now + i).toISOString() });
      await putCallText(env.CALL_TEXT, me.userId, c.callId, { transcript: `Human: ${w}` });
      calls.push(c);
    }
    await indexCalls(shard, env.CALL_TEXT, [calls[3].callId]);
    const read: string[] = [];
    const counting = {
      put: env.CALL_TEXT.put.bind(env.CALL_TEXT),
      delete: env.CALL_TEXT.delete.bind(env.CALL_TEXT),
      list: env.CALL_TEXT.list.bind(env.CALL_TEXT),
      get: ((key: string) => {
        read.push(key);
        return env.CALL_TEXT.get(key);
      }) as R2Bucket["get"],
    };
    expect((await healSearchIndex(db(), shard, counting, { maxRows: 2 })).indexed).toBe(2);
    expect((await healSearchIndex(db(), shard, counting, { maxRows: 2 })).indexed).toBe(1);
    expect((await healSearchIndex(db(), shard, counting, { maxRows: 2 })).indexed).toBe(0);
    // One read for each call whose step was lost, none for the call its write indexed.
    expect(read).toHaveLength(3);
    expect(read.some((k) => k.endsWith(encodeURIComponent(calls[3].callId)) || k.endsWith(calls[3].callId))).toBe(false);
    for (const [i, w] of words.entries()) expect((await search(me, w)).body.results.map((r: { log: { id: number } }) => r.log.id)).toEqual([calls[i].id]);
  });

  it("the cron's healing run shares 400 transcript reads among the shards it heals", () => {
    expect(HEAL_TEXT_READS_PER_RUN).toBe(400);
    expect([1, 2, 4, 400, 1000].map(healTextReadsPerShard)).toEqual([400, 200, 100, 1, 1]);
  });

  it("a rebuild (the healing pass's reads) and a write's index step read a transcript from R2, and an older row's from its column (decision 077)", async () => {
    const me = await signUpAndSignIn();
    const [inR2, inRow] = [uniqueWord(), uniqueWord()];
    const [a] = await insertCallLogs(me.userId, 1, { transcript: null, summary: "No words here." });
    await putCallText(env.CALL_TEXT, me.userId, a.callId, { transcript: [{ role: "user", content: `my ${inR2} whistles` }] });
    const [b] = await insertCallLogs(me.userId, 1, { transcript: `Human: my ${inRow} whistles`, summary: "No words here." });
    const found = async (w: string) => (await search(me, w)).body.results.map((r: { log: { id: number } }) => r.log.id);
    await reindex();
    expect(await found(inR2)).toEqual([a.id]);
    expect(await found(inRow)).toEqual([b.id]);
    // The index step a write path takes after its commit.
    const later = uniqueWord();
    await putCallText(env.CALL_TEXT, me.userId, a.callId, { transcript: `Human: now ${later}` });
    const shard = await shardOf(me.userId);
    await shard.update(callLogs).set({ updatedAt: new Date(Date.parse(a.updatedAt) + 1).toISOString() }).where(eq(callLogs.id, a.id));
    await indexCalls(shard, env.CALL_TEXT, [a.callId]);
    expect(await found(later)).toEqual([a.id]);
    expect(await found(inR2)).toEqual([]);
  });

  it("indexes a call right after the webhook's status update and end-of-call report commit", async () => {
    const me = await signUpAndSignIn();
    const agent = await insertAgent(me.userId, { vapiAssistantId: `asst-${crypto.randomUUID()}` });
    const word = uniqueWord();
    const callId = `call-${crypto.randomUUID()}`;
    const customer = { number: "+13055554321" };
    // The call starts: found by its number before any transcript exists.
    const started = await postReport(
      JSON.stringify({
        message: { type: "status-update", status: "in-progress", call: { id: callId, type: "inboundPhoneCall", status: "in-progress", assistantId: agent.vapiAssistantId, customer, createdAt: "2026-11-20T14:59:58.000Z" } },
      }),
    );
    expect(started.status).toBe(200);
    expect((await search(me, "555-4321")).body.results.map((r: { log: { call_id: string } }) => r.log.call_id)).toEqual([callId]);
    expect((await search(me, word)).body.results).toHaveLength(0);
    // It ends: its transcript's words find it, with the snippet around them.
    const res = await postReport(endOfCallReportBody(agent.vapiAssistantId!, callId, { transcript: `AI: Hello.\nHuman: my ${word} whistles`, number: customer.number }));
    expect(res.status).toBe(200);
    const found = await search(me, word);
    expect(found.body.results.map((r: { log: { call_id: string } }) => r.log.call_id)).toEqual([callId]);
    expect(found.body.results[0].snippet.text).toContain(`my ${word} whistles`);
    // One index row per call: the start time moved from the call's creation to its start.
    const docs = await (await indexOf(me.userId)).prepare(`SELECT count(*) AS n FROM call_search WHERE call_search MATCH ?`).bind(`phone : "4321"`).first<{ n: number }>();
    expect(docs!.n).toBe(1);
    // Written on the account's shard only: no other shard's index holds it.
    const home = await shardNameOf(me.userId);
    for (const shard of testShards()) {
      const n = await d1Of(shard.db).prepare(`SELECT count(*) AS n FROM call_search WHERE call_search MATCH ?`).bind(searchMatch(me.userId, word)).first<{ n: number }>();
      expect(n!.n, shard.name).toBe(shard.name === home ? 1 : 0);
    }
  });

  it("never lets an older version of a call replace a newer one in the index", async () => {
    const me = await signUpAndSignIn();
    const word = uniqueWord();
    const [row] = await insertCallLogs(me.userId, 1, { summary: `New ${word}`, updatedAt: "2026-06-01T00:00:00.500Z" });
    const d = await shardOf(me.userId);
    await indexCalls(d, env.CALL_TEXT, [row.callId]);
    // The same call as an earlier write saw it, indexed late.
    await d.update(callLogs).set({ summary: "Old words", updatedAt: "2026-06-01T00:00:00.100Z" }).where(eq(callLogs.id, row.id));
    await indexCalls(d, env.CALL_TEXT, [row.callId]);
    expect((await search(me, word)).body.results).toHaveLength(1);
  });

  it("the healing pass indexes a call whose index step was lost, and moves its mark", async () => {
    const me = await signUpAndSignIn();
    const word = uniqueWord();
    await reindex();
    // Written as a webhook would, without the index step after it.
    const [row] = await insertCallLogs(me.userId, 1, { summary: `Lost ${word}`, updatedAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await search(me, word)).body.results).toHaveLength(0);
    const first = await heal();
    expect(first.indexed).toBeGreaterThanOrEqual(1);
    expect((await search(me, word)).body.results.map((r: { log: { id: number } }) => r.log.id)).toEqual([row.id]);
    // A second run finds nothing new: it starts from the mark.
    expect((await heal()).indexed).toBe(0);
  });

  it("a rebuild from scratch equals the index the incremental steps built", async () => {
    const me = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    await insertCallLogs(me.userId, 6);
    await insertCallLogs(other.userId, 4, { transcript: JSON.stringify([{ role: "assistant", content: "Hello there" }, { role: "user", text: "Hi" }]) });
    await insertCallLogs(null, 2, { assistantId: "asst-nobody" });
    // Incremental: each call's own index step, as its write path takes it.
    await eachShard(testShards(), async (shard) => {
      const all = await shard.db.select({ callId: callLogs.callId }).from(callLogs);
      await indexCalls(shard.db, env.CALL_TEXT, all.map((r) => r.callId));
    });
    const incremental = await indexRows();
    const docs = Object.values(incremental).flatMap((r) => r.docs);
    expect(docs.length).toBeGreaterThanOrEqual(10);
    // Ownerless calls wait in the directory, which holds no index: they are in no one's search.
    expect((await db().select({ id: callLogs.id }).from(callLogs).where(eq(callLogs.assistantId, "asst-nobody"))).length).toBe(2);
    await reindex();
    expect(await indexRows()).toEqual(incremental);
  });

  it("a deleted account's calls leave the index (the admin's cleanup, and the healing pass for any it missed)", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const [victim, survivor] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
    // An older account under the victim's email (deleted at the identity provider, registered again).
    const older = await insertProfile({ email: victim.email });
    const word = uniqueWord();
    await insertCallLogs(victim.userId, 3, { summary: `Gone ${word}` });
    await insertCallLogs(older.id, 2, { summary: `Gone as well ${word}` });
    await insertCallLogs(survivor.userId, 2, { summary: `Kept ${word}` });
    await reindex();
    // Every shard's index: a deleted account's profile (and so its shard) may be gone.
    const docsOf = async (userId: string) => {
      const counts = await eachShard(testShards(), (shard) =>
        d1Of(shard.db).prepare(`SELECT count(*) AS n FROM call_search_docs WHERE user_id = ?`).bind(userId).first<{ n: number }>(),
      );
      return counts.reduce((n, c) => n + c.value!.n, 0);
    };
    expect(await docsOf(victim.userId)).toBe(3);
    expect(await docsOf(older.id)).toBe(2);
    const res = await fetchAndWait("/api/admin/cleanup-user", {
      method: "POST",
      body: JSON.stringify({ email: victim.email }),
      headers: { "content-type": "application/json", authorization: `Bearer ${admin.accessToken}`, "cf-connecting-ip": "10.1.2.3" },
    });
    expect(res.status).toBe(200);
    // Every account under the email leaves the index, not only the first.
    expect(await docsOf(victim.userId)).toBe(0);
    expect(await docsOf(older.id)).toBe(0);
    const left = await eachShard(testShards(), (shard) =>
      d1Of(shard.db).prepare(`SELECT count(*) AS n FROM call_search WHERE call_search MATCH ?`).bind(`"${word}"`).first<{ n: number }>(),
    );
    expect(left.reduce((n, c) => n + c.value!.n, 0)).toBe(2);
    expect(await docsOf(survivor.userId)).toBe(2);

    // A deletion whose index step was lost: the healing pass removes the rows of deleted accounts.
    const gone = await signUpAndSignIn();
    await insertCallLogs(gone.userId, 2, { summary: `Gone too ${word}` });
    await reindex();
    expect(await docsOf(gone.userId)).toBe(2);
    await (await shardOf(gone.userId)).delete(callLogs).where(inArray(callLogs.userId, [gone.userId]));
    await db().insert(deletedAccounts).values({ userId: gone.userId, deletedAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    await heal();
    expect(await docsOf(gone.userId)).toBe(0);
  });
});
