// The database of the signed-in account's own data (decision 053): routes reading or writing one
// account's agents and call logs take their database from here, never from c.var.db directly.
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../app-env";
import { currentUser } from "../middleware/auth";

/** The signed-in user's account database (the directory database unless ACCOUNT_DATABASES maps it). */
export const accountDb = (c: Context<AppEnv>): Database => c.var.databases.forAccount(currentUser(c).id);
