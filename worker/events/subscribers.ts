// Who hears of each committed change, in one list: a write path emits the change and knows nothing of
// these. Each runs after the answer (./emit.ts), so no write waits for the live feed or the search
// index or the webhook queue; what one misses is caught up elsewhere (a browser's next event or reconnect reads the
// live feed's change log; the 10-minute healing pass indexes what the search index missed).
import { d1Of } from "../db/client";
import { shardBindings } from "../db/shards";
import { publishCalls, publishRevoke, publishStore } from "../live/publish";
import { indexAssistantCalls, indexCalls, removeAccountsFromSearch } from "../services/call-search";
import { createMail } from "../providers";
import { webhookChannel } from "../services/alerts/channels";
import { evaluateAlerts } from "../services/alerts/evaluate";
import { shardNameOfAccount } from "../db/shards";
import { sendCallWebhook } from "../webhooks/call-events";
import type { ChangeName, Subscriber } from "./types";

/** The live feed (decision 058): the sockets of the account (or of the store network) are told. */
const LIVE = { name: "live feed", withoutContext: true } as const;
/**
 * The search index (decision 059), in the shard of the calls it indexes (decision 076): without an
 * execution context it is left to the healing pass. Ownerless calls (in the directory) are in no
 * one's search, so their writes index nothing.
 */
const SEARCH = { name: "search index", withoutContext: false } as const;
/** Alerts (decision 071): the account's call rules, evaluated again as soon as its calls change. */
const ALERTS = { name: "alerts", withoutContext: false } as const;

export const SUBSCRIBERS: { [N in ChangeName]: Subscriber<N>[] } = {
  callsChanged: [
    { ...LIVE, run: (c, { userId }) => publishCalls(c.env, userId) },
    {
      ...SEARCH,
      run: (c, change) =>
        !change.userId
          ? undefined
          : "callIds" in change
            ? indexCalls(change.db, c.env.CALL_TEXT, change.callIds)
            : indexAssistantCalls(change.db, c.env.CALL_TEXT, change.userId, change.assistantId),
    },
    {
      ...ALERTS,
      // On the account's shard as the directory places it (decision 078).
      run: (c, { userId }) =>
        userId
          ? shardNameOfAccount(c.var.db, userId).then((name) =>
              name
                ? evaluateAlerts(
                    { db: c.var.db, shard: { name, db: c.var.databases.shard(name) }, mail: createMail(c.var.config, c.var.db), webhook: webhookChannel(c.env), publicUrl: c.var.config.PUBLIC_URL },
                    new Date(),
                    { userId },
                  )
                : undefined,
            )
          : undefined,
    },
  ],
  // The account's custom webhooks hear call.started and call.ended (decision 070): the deliveries are
  // written and queued after the answer; without an execution context (a test's app.request) nothing is sent.
  callReported: [{ name: "webhooks", withoutContext: false, run: (c, { userId, shard, platformType, call }) => sendCallWebhook(c.env, { id: userId, shard }, platformType, call) }],
  // A deleted account's open sockets close (revoked), and its calls leave the search index.
  accountsDeleted: [
    { ...LIVE, run: (c, { userIds }) => Promise.all(userIds.map((id) => publishRevoke(c.env, id))) },
    // The accounts' shards are not known once their profiles are gone: every shard drops their rows.
    { ...SEARCH, run: (c, { userIds }) => Promise.all(shardBindings(c.env).map((name) => removeAccountsFromSearch(d1Of(c.var.databases.shard(name)), userIds))) },
  ],
  // The account's open sockets are re-checked now: a signed-out session's close, a lost flag's renew.
  accessChanged: [{ ...LIVE, run: (c, { userId }) => publishRevoke(c.env, userId) }],
  storeChanged: [{ ...LIVE, run: (c, { kind, days }) => publishStore(c.env, kind, days) }],
};
