// The call text in R2 (decision 077): its keys, the orphan fallback and move, and an account's deletion in pages.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountPrefix, callTextKey, deleteAccountTexts, getCallText, moveOrphanTexts, putCallText, storedTranscript } from "./call-text";

const user = () => crypto.randomUUID();
const keysUnder = async (prefix: string) => {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.CALL_TEXT.list({ prefix, cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
};

describe("call text keys", () => {
  it("puts an owned call under its account and an orphan under orphans/, a call id's slashes kept in one level", () => {
    expect(callTextKey("u-1", "c-1")).toBe("accounts/u-1/calls/c-1");
    expect(callTextKey(null, "c-1")).toBe("orphans/calls/c-1");
    expect(callTextKey("u-1", "a/b")).toBe("accounts/u-1/calls/a%2Fb");
    expect(callTextKey("u-1", "c-1").startsWith(accountPrefix("u-1"))).toBe(true);
    // One account's prefix is never the start of another's.
    expect(callTextKey("u-10", "c").startsWith(accountPrefix("u-1"))).toBe(false);
  });
});

describe("reading and moving call text", () => {
  it("reads the account's object, else the orphan object, else nothing; a row's column wins when set", async () => {
    const u = user();
    const [own, orphan, none] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await putCallText(env.CALL_TEXT, u, own, { transcript: "AI: mine" });
    await putCallText(env.CALL_TEXT, null, orphan, { transcript: [{ role: "user", content: "orphan" }] });
    expect(await getCallText(env.CALL_TEXT, u, own)).toEqual({ transcript: "AI: mine" });
    expect(await getCallText(env.CALL_TEXT, u, orphan)).toEqual({ transcript: [{ role: "user", content: "orphan" }] });
    expect(await getCallText(env.CALL_TEXT, u, none)).toBeNull();
    expect(await storedTranscript(env.CALL_TEXT, { userId: u, callId: orphan, transcript: null })).toBe('[{"role":"user","content":"orphan"}]');
    expect(await storedTranscript(env.CALL_TEXT, { userId: u, callId: own, transcript: "AI: the column" })).toBe("AI: the column");
  });

  it("moves adopted calls' orphan objects under the owner and skips calls without one", async () => {
    const u = user();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    await putCallText(env.CALL_TEXT, null, a, { transcript: "AI: adopted" });
    expect(await moveOrphanTexts(env.CALL_TEXT, u, [a, b])).toBe(1);
    expect(await env.CALL_TEXT.head(callTextKey(null, a))).toBeNull();
    expect(await getCallText(env.CALL_TEXT, u, a)).toEqual({ transcript: "AI: adopted" });
    expect(await env.CALL_TEXT.head(callTextKey(u, b))).toBeNull();
  });
});

describe("deleting an account's call text", () => {
  it("deletes every object under the account in pages of 1,000, and no other account's or orphan's", async () => {
    const [u, other] = [user(), user()];
    const calls = Array.from({ length: 1_050 }, (_, i) => `call-${i}`);
    for (let i = 0; i < calls.length; i += 50) {
      await Promise.all(calls.slice(i, i + 50).map((id) => putCallText(env.CALL_TEXT, u, id, { transcript: "AI: hi" })));
    }
    await putCallText(env.CALL_TEXT, other, "call-0", { transcript: "AI: theirs" });
    await putCallText(env.CALL_TEXT, null, `orphan-${u}`, { transcript: "AI: nobody's" });
    expect(await keysUnder(accountPrefix(u))).toHaveLength(1_050);
    expect(await deleteAccountTexts(env.CALL_TEXT, u)).toBe(1_050);
    expect(await keysUnder(accountPrefix(u))).toEqual([]);
    expect(await keysUnder(accountPrefix(other))).toEqual([callTextKey(other, "call-0")]);
    expect(await env.CALL_TEXT.head(callTextKey(null, `orphan-${u}`))).not.toBeNull();
    // Nothing left: a repeat deletes nothing.
    expect(await deleteAccountTexts(env.CALL_TEXT, u)).toBe(0);
  }, 60_000);
});
