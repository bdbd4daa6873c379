// The alert rules, evaluated every minute (decision 071) on every shard at once (decision 078); their
// history pruned nightly, per shard, and the directory's mail caps' log with it.
import { eachShard, ShardsFailed, shardOutcomes } from "../db/shards";
import { createMail } from "../providers";
import { webhookChannel } from "../services/alerts/channels";
import { evaluateAlerts, type AlertRun, type StoreValues } from "../services/alerts/evaluate";
import { pruneAlertHistory, pruneAlertMailLog } from "../services/alerts/rules";
import type { Job } from "./context";

type Figures = Omit<AlertRun, "runId">;
const FIGURES = ["rules", "accounts", "fired", "resolved", "mailsFailed", "webhooksFailed"] as const;

/**
 * Each shard's rules over that shard's calls, all shards in parallel. A shard that fails (its
 * database unreachable) does not stop or hide the others: their alerts are evaluated and sent, and
 * the run then fails naming the failed shard, so admins see it (decision 025). A run whose mails or
 * webhooks failed fails too.
 */
export const alertJob: Job = {
  name: "alerts",
  run: async (ctx) => {
    const mail = createMail(ctx.config, ctx.db);
    const webhook = webhookChannel(ctx.webhooks);
    const runId = crypto.randomUUID();
    // The store network's figures are the directory's: read once for every shard's rules.
    const storeValues: StoreValues = new Map();
    const outcomes = await shardOutcomes(ctx.shards, (shard) =>
      evaluateAlerts({ db: ctx.db, shard, mail, webhook, publicUrl: ctx.config.PUBLIC_URL, storeValues }, ctx.now, undefined, runId),
    );
    const total: Figures & { shards: Record<string, Figures> } = { rules: 0, accounts: 0, fired: 0, resolved: 0, mailsFailed: 0, webhooksFailed: 0, shards: {} };
    for (const o of outcomes) {
      if (!o.ok) continue;
      const { runId: _, ...figures } = o.value;
      total.shards[o.shard] = figures;
      for (const f of FIGURES) total[f] += figures[f];
    }
    if (outcomes.some((o) => !o.ok)) throw new ShardsFailed(outcomes);
    if (total.mailsFailed + total.webhooksFailed > 0) throw new Error(`${total.mailsFailed} alert mails and ${total.webhooksFailed} alert webhooks failed (see the log)`);
    return total;
  },
};

/** Alerts are kept 90 days: each shard's history, then the directory's mail caps' log of days before yesterday. */
export const alertPruneJob: Job = {
  name: "alert-history-prune",
  run: async (ctx) => {
    const [shards, mails] = await Promise.all([eachShard(ctx.shards, (shard) => pruneAlertHistory(shard.db, ctx.now)), pruneAlertMailLog(ctx.db, ctx.now)]);
    return { alerts: shards.reduce((n, s) => n + s.value.alerts, 0), mails: mails.mails };
  },
};
