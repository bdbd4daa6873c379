// The local receiver's store (outside production): what it received, checked as a receiver would
// check it, against the secrets of the endpoints whose URL points at the inbox (on any shard: the
// endpoints are their accounts' shards', decision 078; the inbox itself is the directory's).
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { WebhookInboxEntry } from "@shared/schemas/webhooks";
import { WEBHOOK_INBOX_PATH } from "@shared/webhooks";
import type { Database } from "../db/client";
import { webhookEndpoints, webhookInbox } from "../db/schema";
import { verificationError } from "./signing";

/** The newest deliveries an inbox keeps (the webhook bench reads thousands). */
const KEPT = 20_000;

/**
 * Faults a receiver can be asked for in the endpoint's URL, to watch retries locally: `fail=P`
 * answers 500 to P % of deliveries at random, `down_until=T` answers 503 until T (epoch ms).
 */
export type InboxFaults = { fail?: number; downUntil?: number };

/** The status this delivery is answered with, given the faults asked for. */
export const inboxAnswer = (faults: InboxFaults, nowMs: number, random = Math.random()) =>
  faults.downUntil !== undefined && nowMs < faults.downUntil ? 503 : faults.fail !== undefined && random * 100 < faults.fail ? 500 : 200;

/** Keeps one delivery with the status it is answered; answers that status and whether the signature verified. */
export async function receiveInInbox(
  db: Database,
  shards: readonly Database[],
  inbox: string,
  headers: Headers,
  body: string,
  now: Date,
  faults: InboxFaults = {},
): Promise<{ verified: boolean; answered: number }> {
  const path = `${WEBHOOK_INBOX_PATH}/${inbox}`;
  // The endpoints whose URL's path is exactly the inbox's, on any origin and with any query (the
  // faults). A stored URL is normalized (scheme://host[:port]/path[?query][#fragment]), so its path
  // starts at the first "/" after "://" and ends before "?", "#" or the end. No LIKE pattern: D1
  // refuses one over 50 bytes, and an inbox path is up to 89.
  const rest = sql`substr(${webhookEndpoints.url}, instr(${webhookEndpoints.url}, '://') + 3)`;
  const pathStart = sql`instr(${rest}, '/')`;
  const endpoints = (
    await Promise.all(
      shards.map((shard) =>
        shard
          .select({ url: webhookEndpoints.url, secret: webhookEndpoints.secret, previous: webhookEndpoints.previousSecret, previousUntil: webhookEndpoints.previousSecretExpiresAt })
          .from(webhookEndpoints)
          .where(and(sql`${pathStart} > 0`, sql`substr(${rest}, ${pathStart}, ${path.length}) = ${path}`, sql`substr(${rest}, ${pathStart} + ${path.length}, 1) in ('', '?', '#')`)),
      ),
    )
  ).flat();
  const at = now.toISOString();
  const secrets = endpoints
    .filter((e) => new URL(e.url).pathname === path)
    .flatMap((e) => (e.previous && e.previousUntil && e.previousUntil > at ? [e.secret, e.previous] : [e.secret]));
  const signed = { id: headers.get("webhook-id"), timestamp: headers.get("webhook-timestamp"), signature: headers.get("webhook-signature") };
  const error = secrets.length === 0 ? "no endpoint points at this inbox" : await verificationError(secrets, signed, body, Math.floor(now.getTime() / 1000));
  let eventType: string | null = null;
  try {
    const parsed = JSON.parse(body) as { type?: unknown };
    if (typeof parsed.type === "string") eventType = parsed.type;
  } catch {
    eventType = null;
  }
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!name.startsWith("cf-") && name !== "authorization") kept[name] = value;
  });
  const answered = inboxAnswer(faults, now.getTime());
  const [row] = await db
    .insert(webhookInbox)
    .values({ inbox, receivedAt: at, webhookId: signed.id, eventType, headers: JSON.stringify(kept), body, verified: error === null, verifyError: error, answered })
    .returning({ id: webhookInbox.id });
  await db.delete(webhookInbox).where(and(eq(webhookInbox.inbox, inbox), lte(webhookInbox.id, row.id - KEPT)));
  return { verified: error === null, answered };
}

/** The inbox's newest deliveries first. */
export async function inboxEntries(db: Database, inbox: string, limit = 50): Promise<WebhookInboxEntry[]> {
  const rows = await db.select().from(webhookInbox).where(eq(webhookInbox.inbox, inbox)).orderBy(desc(webhookInbox.id)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.receivedAt,
    webhookId: r.webhookId,
    eventType: r.eventType,
    headers: JSON.parse(r.headers) as Record<string, string>,
    body: r.body,
    verified: r.verified,
    verifyError: r.verifyError,
    answered: r.answered,
  }));
}
