// The daily provider sync of accounts (worker/services/admin/gone-accounts.ts): the keys, webhook
// endpoints and alert rules of accounts the identity provider no longer has stop working.
import type { Job } from "./context";
import { createProviders } from "../providers";
import { closeGoneAccounts } from "../services/admin/gone-accounts";

export const identitySyncJob: Job = {
  name: "identity-sync",
  run: async (ctx) => closeGoneAccounts(ctx.db, createProviders(ctx.config, ctx.db).identity, ctx.now),
};
