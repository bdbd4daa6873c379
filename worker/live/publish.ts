// Publishing to the live feed (decision 058): once a write has committed, the account's (or the
// store network's) object is told, and sends its sockets what changed. These are the live feed's
// subscribers to the committed-change events (worker/events/subscribers.ts), which run them after the
// answer; a publish that fails is logged there, the write stands, and a browser catches up from the
// change log on its next event or reconnect.
import type { LiveStoreMessage } from "@shared/schemas/live";
import type { Bindings } from "../env";
import { liveFeed } from "./rpc";
import { accountFeedName, STORE_FEED_NAME } from "./tickets";

/** The account's call log has committed a change: its open feeds show it. */
export function publishCalls(env: Bindings, userId: string | null | undefined): Promise<void> | undefined {
  if (!userId) return;
  return liveFeed(env, accountFeedName(userId))?.publishCalls(userId);
}

/** Store-network data of these New York days has committed a change: entitled feeds refetch them. */
export function publishStore(env: Bindings, kind: LiveStoreMessage["kind"], days: Iterable<string>): Promise<void> | undefined {
  const unique = [...new Set(days)];
  if (unique.length === 0) return;
  return liveFeed(env, STORE_FEED_NAME)?.publishStore(unique.map((day) => ({ type: "store", kind, day })));
}

/** The account's sign-in or rights changed: its feed re-checks every open socket now. */
export function publishRevoke(env: Bindings, userId: string | null | undefined): Promise<void> | undefined {
  if (!userId) return;
  return liveFeed(env, accountFeedName(userId))?.recheck();
}
