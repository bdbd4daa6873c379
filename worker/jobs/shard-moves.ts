// The minute cron's step of every account move between shards (decision 080).
import { d1Of } from "../db/client";
import { advanceMoves } from "../services/shards/move";
import type { Job } from "./context";

export const shardMovesJob: Job = {
  name: "shard-moves",
  run: (ctx) =>
    advanceMoves({
      directory: ctx.db,
      bound: ctx.shards.map((s) => s.name),
      shard: (name) => {
        const shard = ctx.shards.find((s) => s.name === name);
        if (!shard) throw new Error(`${name} is not a shard of this Worker`);
        return d1Of(shard.db);
      },
    }),
};
