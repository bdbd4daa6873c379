// The daily provider sync of accounts (worker/services/admin/gone-accounts.ts): the keys, webhook
// endpoints and alert rules of accounts the identity provider no longer has stop working. Then the
// sweep of deleted accounts: rows a deletion left on a shard that failed then are deleted on every
// shard (worker/services/admin/cleanup.ts). Both run; a failure of either fails the job after both.
import type { Job } from "./context";
import { createProviders } from "../providers";
import { closeGoneAccounts } from "../services/admin/gone-accounts";
import { sweepDeletedAccounts } from "../services/admin/cleanup";

export const identitySyncJob: Job = {
  name: "identity-sync",
  run: async (ctx) => {
    const [gone, swept] = await Promise.allSettled([closeGoneAccounts(ctx.db, ctx.shards, createProviders(ctx.config, ctx.db).identity, ctx.now), sweepDeletedAccounts(ctx.db, ctx.shards, ctx.now)]);
    const errors = [gone, swept].flatMap((r) => (r.status === "rejected" ? [r.reason instanceof Error ? r.reason.message : String(r.reason)] : []));
    if (errors.length) throw new Error(errors.join(" | "));
    return { ...(gone as PromiseFulfilledResult<Awaited<ReturnType<typeof closeGoneAccounts>>>).value, swept: (swept as PromiseFulfilledResult<Awaited<ReturnType<typeof sweepDeletedAccounts>>>).value };
  },
};
