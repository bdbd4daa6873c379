// Announces a committed change to its subscribers (./subscribers.ts), after the answer: each one's
// work goes to the request's ExecutionContext.waitUntil, so the answer does not wait for it. Emit
// only once the write has committed: a subscriber reads what the write left.
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { log } from "../lib/log";
import { executionContext } from "../middleware/context";
import { SUBSCRIBERS } from "./subscribers";
import type { ChangeName, CommittedChanges, Subscriber } from "./types";

export function emit<N extends ChangeName>(c: Context<AppEnv>, name: N, change: CommittedChanges[N]) {
  const ctx = executionContext(c);
  for (const subscriber of SUBSCRIBERS[name] as Subscriber<N>[]) {
    if (!ctx && !subscriber.withoutContext) continue;
    let work: Promise<unknown> | undefined;
    try {
      work = subscriber.run(c, change);
    } catch (e) {
      work = Promise.reject(e);
    }
    const settled = work?.catch((e: unknown) => {
      log(c, "warn", `${subscriber.name} did not follow a committed change`, { change: name, error: e instanceof Error ? e.message : String(e) });
    });
    if (settled) ctx?.waitUntil(settled);
  }
}
