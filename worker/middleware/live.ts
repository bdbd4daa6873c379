// Publishing to the live feed (decision 058): after a write has committed, a route tells the
// account's (or the store network's) Durable Object, without holding its answer for it
// (ExecutionContext.waitUntil). A publish that fails is logged; the write stands, and a browser
// catches up from the change log on its next event or reconnect.
import type { Context } from "hono";
import type { LiveStoreMessage } from "@shared/schemas/live";
import type { AppEnv } from "./app-env";
import { executionContext } from "./context";
import { log } from "../lib/log";
import { accountFeedName, STORE_FEED_NAME } from "../services/live-feed";

/**
 * The header the Worker hands an account's feed the identity of a spent ticket in (JSON LiveIdentity).
 * Only the Worker reaches a feed object, so the object takes it as it stands.
 */
export const LIVE_WHO_HEADER = "x-live-who";

/** The feed's methods the Worker calls (worker/live-feed.ts implements them). */
export interface LiveFeedRpc {
  /** The account's call log changed: send every socket what it has not seen yet. */
  publishCalls(userId: string): Promise<void>;
  /** Store data changed: the store feed passes the signals to every subscribed account feed. */
  publishStore(messages: LiveStoreMessage[]): Promise<void>;
  /** Re-checks every socket's sign-in now (a sign-out, a deletion, a flag or password change). */
  recheck(): Promise<void>;
}

/** Whether this deployment has the live feed's binding. */
export const liveFeedConfigured = (env: AppEnv["Bindings"]) => Boolean(env.LIVE_FEED);

/** The feed object of this name; null in a deployment without the binding (nothing is published then). */
export function feedStub(env: AppEnv["Bindings"], name: string): DurableObjectStub | null {
  const ns = env.LIVE_FEED as DurableObjectNamespace | undefined;
  return ns ? ns.get(ns.idFromName(name)) : null;
}

/** The feed object of this name, through the methods the Worker calls. */
export const liveFeed = (env: AppEnv["Bindings"], name: string) => feedStub(env, name) as unknown as LiveFeedRpc | null;

/** Runs a publish after the answer (or, without an ExecutionContext, in the background); failures are logged. */
function afterAnswer(c: Context<AppEnv>, what: string, send: () => Promise<void>) {
  const work = send().catch((e: unknown) => {
    log(c, "warn", "live feed publish failed", { what, error: e instanceof Error ? e.message : String(e) });
  });
  // Without an ExecutionContext (app.request() in tests) the publish runs on its own.
  executionContext(c)?.waitUntil(work);
}

/** The account's call log has committed a change: its open feeds show it. */
export function publishCalls(c: Context<AppEnv>, userId: string | null | undefined) {
  if (!userId) return;
  const feed = liveFeed(c.env, accountFeedName(userId));
  if (feed) afterAnswer(c, "calls", () => feed.publishCalls(userId));
}

/** Store-network data of these New York days has committed a change: entitled feeds refetch them. */
export function publishStore(c: Context<AppEnv>, kind: LiveStoreMessage["kind"], days: Iterable<string>) {
  const feed = liveFeed(c.env, STORE_FEED_NAME);
  if (!feed) return;
  const unique = [...new Set(days)];
  if (unique.length === 0) return;
  afterAnswer(c, `store ${kind}`, () => feed.publishStore(unique.map((day) => ({ type: "store", kind, day }))));
}

/** The account's sign-in or rights changed: its feed re-checks every open socket now. */
export function publishRevoke(c: Context<AppEnv>, userId: string | null | undefined) {
  if (!userId) return;
  const feed = liveFeed(c.env, accountFeedName(userId));
  if (feed) afterAnswer(c, "recheck", () => feed.recheck());
}

/**
 * A socket accepted only to be closed with `code`: a browser sees a close code, never an HTTP status,
 * so a refused ticket is told apart from a network failure.
 */
export function refusedSocket(code: number, reason: string): Response {
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  server.close(code, reason);
  return new Response(null, { status: 101, webSocket: client });
}
