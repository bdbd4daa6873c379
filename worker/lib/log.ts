// Structured log lines, each carrying the request id.
import type { Context } from "hono";

type Level = "info" | "warn" | "error";

export function log(c: Context | { get(key: "requestId"): string } | null, level: Level, message: string, data?: Record<string, unknown>) {
  let requestId: string | undefined;
  try {
    requestId = c ? (c as Context).get("requestId") : undefined;
  } catch {
    requestId = undefined;
  }
  const line = JSON.stringify({ level, message, requestId, ...data });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
