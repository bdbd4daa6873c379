// What an isolate reads once and then remembers (the roll-ups' coverage, the oldest call) would cost
// the first request that needs it a round trip of its own. While an isolate has not read them yet,
// they ride along the sign-in confirmation's batch that every signed-in request sends first
// (services/profiles.ts, confirmSignedIn): the first count after a start makes the round trips every
// later one makes. They are reads of no account's data, and once read they are never sent again.
// A shard's coverage (its calls' roll-ups, decision 076) cannot ride the directory's batch: it is read
// in a batch of the shard's own sent at the same time, so its round trip overlaps the sign-in's.
import type { Database } from "../db/client";
import type { TokenClaims } from "../providers/identity/port";
import { warmUpOldestCallOf } from "./admin/stats";
import { coverageWarmUp, warmUpCoverageOf } from "./counts/engine";
import type { IsolateReads } from "./isolate-reads";

/**
 * Shards whose coverage a cold isolate reads beside one sign-in. The sign-in does not yet know the
 * account's shard, so it reads every shard's up to this many (one small batch each, in parallel); a
 * Worker with more shards leaves the others to their first count, which then reads its coverage in a
 * round trip of its own (once per isolate and shard).
 */
export const SHARDS_WARMED_PER_SIGN_IN = 16;

/** The Worker's shards, by binding name, and the request's database of each. */
export type WarmUpShards = { names: readonly string[]; of: (name: string) => Database };

/**
 * The reads this isolate still lacks, for a sign-in with these claims: the directory's coverage, for
 * the sign-in's batch (null when it has it). With `shards`, each shard's reads are asked for at once,
 * in parallel with that batch: its coverage while this isolate has not read it, and for a token that
 * says admin its oldest call (only the admin figures read it).
 */
export function isolateWarmUp(db: Database, claims: TokenClaims, shards?: WarmUpShards): IsolateReads | null {
  for (const name of shards?.names.slice(0, SHARDS_WARMED_PER_SIGN_IN) ?? []) warmUpCoverageOf(name, () => shards!.of(name));
  const admin = claims.appMetadata.is_admin === true || claims.appMetadata.is_admin === "true";
  // Each shard's oldest call, read beside the sign-in as its coverage is (the admin figures' start).
  if (admin) for (const name of shards?.names.slice(0, SHARDS_WARMED_PER_SIGN_IN) ?? []) warmUpOldestCallOf(name, () => shards!.of(name));
  const parts = [coverageWarmUp(db)].filter((p): p is IsolateReads => p !== null);
  if (parts.length === 0) return null;
  return {
    statements: parts.flatMap((p) => p.statements),
    read: (results) => {
      let at = 0;
      for (const p of parts) p.read(results.slice(at, (at += p.statements.length)));
    },
  };
}
