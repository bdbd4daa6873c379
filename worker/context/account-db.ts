// The shard of the signed-in account (decision 076): routes reading or writing one account's calls,
// roll-ups, alerts and webhooks take their database from here, never from c.var.db (the directory).
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../app-env";
import { currentUser } from "../middleware/auth";

/** The signed-in account's shard, as the request's D1 session of it. */
export const accountDb = (c: Context<AppEnv>): Database => c.var.databases.shard(currentUser(c).shard);
