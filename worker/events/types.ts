// The changes a write path announces once its write has committed, and what a subscriber to them is.
// A path emits the change (./emit.ts); who hears of it is listed in one place (./subscribers.ts).
import type { Context } from "hono";
import type { PlatformCall } from "@shared/schemas/call-logs";
import type { LiveStoreMessage } from "@shared/schemas/live";
import type { AppEnv } from "../app-env";
import type { Database } from "../db/client";

/** Each committed change by name, with what its subscribers are told. */
export type CommittedChanges = {
  /**
   * An account's call logs changed, in `db`, the database they were written to (the account's shard;
   * the directory for a call no account owns, decision 076): these calls recorded
   * or updated (`userId` null for a call no account owns), or the earlier calls of an assistant
   * adopted by the account's agent.
   */
  callsChanged: { db: Database } & ({ userId: string | null; callIds: string[] } | { userId: string; assistantId: string });
  /**
   * A new voice-platform event of a call was recorded (its type as the platform names it, and the call
   * as it now stands); `userId` null for a call no account owns; `shard` the account's shard the call
   * was written to.
   */
  callReported: { userId: string | null; shard: string | null; platformType: string; call: PlatformCall };
  /** Accounts were deleted (an admin's cleanup), their data with them. */
  accountsDeleted: { userIds: string[] };
  /** An account's sign-in or rights changed (a sign-out, a password change, its flags). */
  accessChanged: { userId: string };
  /** Store-network data of these New York days changed. */
  storeChanged: { kind: LiveStoreMessage["kind"]; days: string[] };
};

export type ChangeName = keyof CommittedChanges;

/** One subscriber of a change: its work runs after the answer; a failure is logged and changes nothing else. */
export type Subscriber<N extends ChangeName> = {
  /** What it keeps in step, for the log line of a failure. */
  name: string;
  /**
   * Whether it also runs, unawaited, for a request without an execution context (a test's
   * app.request); otherwise it is skipped there.
   */
  withoutContext: boolean;
  /** The work, or undefined when there is none (e.g. no live feed binding in this deployment). */
  run(c: Context<AppEnv>, change: CommittedChanges[N]): Promise<unknown> | undefined;
};
