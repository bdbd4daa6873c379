// The minute cron's step of every account move between shards (decision 080). A move indexes the calls
// it copies, reading their transcripts from R2 (decision 077): without the bucket the job skips.
import { d1Of } from "../db/client";
import { advanceMoves } from "../services/shards/move";
import type { Job } from "./context";

export const shardMovesJob: Job = {
  name: "shard-moves",
  run: async (ctx) =>
    ctx.callText
      ? advanceMoves({
          directory: ctx.db,
          bound: ctx.shards.map((s) => s.name),
          shard: (name) => {
            const shard = ctx.shards.find((s) => s.name === name);
            if (!shard) throw new Error(`${name} is not a shard of this Worker`);
            return d1Of(shard.db);
          },
          text: ctx.callText,
        })
      : { skipped: true },
};
