// The live feed object's contract (decision 058): the methods the Worker and the objects call on it
// (worker/live/feed.ts implements them), how an object is reached by name, and how a refused socket
// looks. The object, the routes and publishing all take it from here.
import type { LiveStoreMessage } from "@shared/schemas/live";
import type { Bindings } from "../env";

/**
 * The header the Worker hands an account's feed the identity of a spent ticket in (JSON LiveIdentity).
 * Only the Worker reaches a feed object, so the object takes it as it stands.
 */
export const LIVE_WHO_HEADER = "x-live-who";
/** The header the Worker hands an account's feed the cursor to resume after in. */
export const LIVE_AFTER_HEADER = "x-live-after";

/** The feed's methods the Worker calls. */
export interface LiveFeedRpc {
  /** The account's call log changed: send every socket what it has not seen yet. */
  publishCalls(userId: string): Promise<void>;
  /** Store data changed: the store feed passes the signals to every subscribed account feed. */
  publishStore(messages: LiveStoreMessage[]): Promise<void>;
  /** Re-checks every socket's sign-in now (a sign-out, a deletion, a flag or password change). */
  recheck(): Promise<void>;
}

/** The account feed's methods the store feed calls. */
export interface AccountFeedStoreRpc {
  /** Sends store signals to the entitled sockets; returns how many such sockets there were. */
  storeSignal(messages: LiveStoreMessage[]): Promise<number>;
}

/** The store feed's methods an account feed calls for its sockets entitled to store signals. */
export interface StoreFeedRpc {
  subscribe(userId: string): Promise<void>;
  unsubscribe(userId: string): Promise<void>;
}

/** Whether this deployment has the live feed's binding. */
export const liveFeedConfigured = (env: Bindings) => Boolean(env.LIVE_FEED);

/** The feed object of this name; null in a deployment without the binding (nothing is published then). */
export function feedStub(env: Bindings, name: string): DurableObjectStub | null {
  const ns = env.LIVE_FEED as DurableObjectNamespace | undefined;
  return ns ? ns.get(ns.idFromName(name)) : null;
}

/** The feed object of this name, through the methods the Worker calls. */
export const liveFeed = (env: Bindings, name: string) => feedStub(env, name) as unknown as LiveFeedRpc | null;

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
