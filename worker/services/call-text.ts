// Call text in R2 (decision 077): the text that grows with a call (its transcript) is one object per
// call in the CALL_TEXT bucket, not a column of call_logs, so a D1 row stays small whatever the call
// said. This module owns the keys and the object's shape; D1 keeps the summary and what lists, counts
// and filters read. A row written before keeps its text in call_logs.transcript, which wins when set.
import type { PlatformCall } from "../providers/voice/port";

/** The binding's name in wrangler.toml. */
export const CALL_TEXT_BINDING = "CALL_TEXT";

/** What one object holds: the call's text fields, by name (a string transcript as given, turns as an array). */
export type CallText = { transcript: NonNullable<PlatformCall["transcript"]> };

/** The R2 operations this module uses: the Worker's binding, or Miniflare's in the local scripts. */
export type CallTextBucket = Pick<R2Bucket, "put" | "get" | "delete" | "list">;

/** Objects R2 lists and deletes in one call at most. */
const PAGE = 1000;
/** Objects read or written at once by the many-call helpers. */
const PARALLEL = 16;

/**
 * The object of a call: under its account (`accounts/<user id>/calls/<call id>`), so deleting an
 * account deletes one prefix; a call that no account owns yet (an orphan, ADR 003) under
 * `orphans/calls/<call id>` until adoption moves it. The call id is the voice platform's, encoded so
 * no character of it adds a level.
 */
export function callTextKey(userId: string | null, callId: string): string {
  const id = encodeURIComponent(callId);
  return userId ? `${accountPrefix(userId)}calls/${id}` : `orphans/calls/${id}`;
}

export const accountPrefix = (userId: string) => `accounts/${encodeURIComponent(userId)}/`;

/** Stores a call's text (before the row that points to it commits: a failure throws, and no row says more than R2 holds). */
export async function putCallText(bucket: CallTextBucket, userId: string | null, callId: string, text: CallText): Promise<void> {
  await bucket.put(callTextKey(userId, callId), JSON.stringify(text), { httpMetadata: { contentType: "application/json" } });
}

async function readObject(bucket: CallTextBucket, key: string): Promise<CallText | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const parsed = (await object.json()) as Partial<CallText> | null;
  return parsed?.transcript != null ? { transcript: parsed.transcript } : null;
}

/**
 * A call's text: its account's object, else its orphan object (a call adopted while its move had
 * not happened yet, or a report that came when its assistant was no agent's); null when neither is.
 */
export async function getCallText(bucket: CallTextBucket, userId: string | null, callId: string): Promise<CallText | null> {
  const own = await readObject(bucket, callTextKey(userId, callId));
  if (own || !userId) return own;
  return readObject(bucket, callTextKey(null, callId));
}

/**
 * A call's transcript for a reader of its row: the row's own column when set (a row written before
 * the text moved to R2), else the object's; the stored form (a string, or turns as JSON), as the
 * column holds it.
 */
export async function storedTranscript(bucket: CallTextBucket, row: { userId: string | null; callId: string; transcript: string | null }): Promise<string | null> {
  if (row.transcript != null) return row.transcript;
  const text = await getCallText(bucket, row.userId, row.callId);
  return text ? encodeStored(text.transcript) : null;
}

const encodeStored = (t: CallText["transcript"]) => (typeof t === "string" ? t : JSON.stringify(t));

/** The same for many rows (the search index's writes), PARALLEL reads at a time; rows come back with `transcript` filled. */
export async function withStoredTranscripts<R extends { userId: string | null; callId: string; transcript: string | null }>(
  bucket: CallTextBucket,
  rows: R[],
): Promise<R[]> {
  const out = rows.slice();
  await inParallel(rows.length, async (i) => {
    const r = rows[i];
    // An ownerless call is only removed from the index: its text is never read.
    if (r.transcript == null && r.userId != null) out[i] = { ...r, transcript: await storedTranscript(bucket, r) };
  });
  return out;
}

/**
 * Moves adopted calls' objects from their orphan keys to the account's (copy, then delete the
 * orphan): after the adoption committed, so a reader between the two finds the orphan object.
 * A call without an orphan object is skipped. Returns how many moved.
 */
export async function moveOrphanTexts(bucket: CallTextBucket, userId: string, callIds: string[]): Promise<number> {
  let moved = 0;
  await inParallel(callIds.length, async (i) => {
    const text = await readObject(bucket, callTextKey(null, callIds[i]));
    if (!text) return;
    await putCallText(bucket, userId, callIds[i], text);
    await bucket.delete(callTextKey(null, callIds[i]));
    moved++;
  });
  return moved;
}

/** Deletes the orphan objects of these calls (their owner's report wrote the account's object). */
export async function deleteOrphanTexts(bucket: CallTextBucket, callIds: string[]): Promise<void> {
  for (let i = 0; i < callIds.length; i += PAGE) await bucket.delete(callIds.slice(i, i + PAGE).map((id) => callTextKey(null, id)));
}

/** Deletes every object of an account: its prefix listed and deleted a page (1,000) at a time. Returns how many. */
export async function deleteAccountTexts(bucket: CallTextBucket, userId: string): Promise<number> {
  let deleted = 0;
  // Listing again from the start after each page: the deleted keys are gone, so no cursor is needed.
  for (;;) {
    const page = await bucket.list({ prefix: accountPrefix(userId), limit: PAGE });
    if (page.objects.length === 0) return deleted;
    await bucket.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
    if (!page.truncated) return deleted;
  }
}

async function inParallel(n: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, n) }, worker));
}
