// The one place that picks an account's database (decision 053). Every query about one account's own
// data (its agents and its call logs, read by its own requests) gets its database here, so moving an
// account to a database of its own is a setting, not a rewrite of the services.
import type { AppConfig, Bindings } from "../env";
import { DIRECTORY_BINDING } from "./sessions";

/**
 * The name of the D1 binding holding an account's own data: the one ACCOUNT_DATABASES maps it to,
 * else the directory database. Production ignores the map: webhooks, jobs and staff reads still find
 * every account's rows in the directory database (decision 053 lists what a real split needs).
 */
export function accountBinding(config: AppConfig, accountId: string): string {
  if (config.APP_ENV === "production") return DIRECTORY_BINDING;
  const databases = config.ACCOUNT_DATABASES;
  return databases && Object.hasOwn(databases, accountId) ? databases[accountId] : DIRECTORY_BINDING;
}

/** The D1 binding of an account's database. */
export const accountDatabase = (env: Bindings, config: AppConfig, accountId: string): D1Database =>
  env[accountBinding(config, accountId)] as D1Database;
