// What an isolate reads once and then remembers (the roll-ups' coverage, the oldest call) would cost
// the first request that needs it a round trip of its own. While an isolate has not read them yet,
// they ride along the sign-in confirmation's batch that every signed-in request sends first
// (services/profiles.ts, confirmSignedIn): the first count after a start makes the round trips every
// later one makes. They are reads of no account's data, and once read they are never sent again.
import type { Database } from "../db/client";
import type { TokenClaims } from "../providers/identity/port";
import { coverageWarmUp } from "./counts/engine";
import type { IsolateReads } from "./isolate-reads";

/**
 * The reads this isolate still lacks, for a sign-in with these claims: the coverage. null when none.
 * (Each shard's oldest call, which only the admin figures read, is a shard's read: warmUpOldestCallOf.)
 */
export function isolateWarmUp(db: Database, _claims: TokenClaims): IsolateReads | null {
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
