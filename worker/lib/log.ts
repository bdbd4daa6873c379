// Structured log lines, each carrying the id of the work it belongs to: the request id for requests
// (webhooks included, and what they defer with waitUntil), the run id for a scheduled run.
// Code that has no request context at hand (jobs, providers, services) passes `null` and the id
// comes from the async context the request middleware or the scheduled handler opened.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "hono";

type Level = "info" | "warn" | "error";

/** What every line of one piece of work carries. */
export type LogScope = { requestId: string; cron?: string; job?: string };

const scope = new AsyncLocalStorage<LogScope>();

/** Runs `fn` with `fields` on every log line written inside it (nested scopes add to the outer one). */
export function withLogScope<T>(fields: LogScope | Omit<LogScope, "requestId">, fn: () => T): T {
  const outer = scope.getStore();
  return scope.run({ ...outer, ...fields } as LogScope, fn);
}

/** The current scope's request (or run) id, if any. */
export const currentLogScope = () => scope.getStore();

export function log(c: Context | { get(key: "requestId"): string } | null, level: Level, message: string, data?: Record<string, unknown>) {
  let requestId: string | undefined;
  try {
    requestId = c ? (c as Context).get("requestId") : undefined;
  } catch {
    requestId = undefined;
  }
  const current = scope.getStore();
  const line = JSON.stringify({ level, message, ...current, requestId: requestId ?? current?.requestId, ...data });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
