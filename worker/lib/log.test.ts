// Log lines inside a request carry its id, also from code that passes no context and from work the
// request defers past its answer.
import { describe, expect, it, vi } from "vitest";
import { log, withLogScope } from "./log";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { requestContext } from "../middleware/context";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const grab = (...args: unknown[]) => lines.push(JSON.parse(String(args[0])));
  const spies = [vi.spyOn(console, "log").mockImplementation(grab), vi.spyOn(console, "warn").mockImplementation(grab), vi.spyOn(console, "error").mockImplementation(grab)];
  return { lines, restore: () => spies.forEach((s) => s.mockRestore()) };
}

describe("log scope", () => {
  it("gives lines without a context the scope's id, across awaits and timers, and nested fields add to it", async () => {
    const { lines, restore } = capture();
    try {
      log(null, "info", "outside");
      await withLogScope({ requestId: "req-12345678" }, async () => {
        await new Promise((r) => setTimeout(r, 1));
        log(null, "warn", "after a timer", { n: 1 });
        await withLogScope({ job: "inner" }, async () => log(null, "error", "nested"));
        // An explicit context wins over the scope.
        log({ get: () => "explicit-id" }, "info", "explicit");
      });
    } finally {
      restore();
    }
    expect(lines[0]).toEqual({ level: "info", message: "outside" });
    expect(lines[1]).toEqual({ level: "warn", message: "after a timer", requestId: "req-12345678", n: 1 });
    expect(lines[2]).toEqual({ level: "error", message: "nested", requestId: "req-12345678", job: "inner" });
    expect(lines[3]).toMatchObject({ requestId: "explicit-id" });
  });

  it("carries the request's id into code that logs without the request context, also after the answer", async () => {
    const deferred: Promise<unknown>[] = [];
    const app = new Hono<AppEnv>()
      .use("*", requestContext(() => Promise.reject(new Error("no self-dispatch here"))))
      .get("/work", async (c) => {
        log(null, "info", "in the handler");
        // Work that outlives the answer (as waitUntil work does) keeps the scope.
        deferred.push(new Promise((r) => setTimeout(r, 5)).then(() => log(null, "warn", "after the answer")));
        return c.json({ ok: true });
      });
    const { lines, restore } = capture();
    try {
      const a = await app.request("http://localhost/work", { headers: { "x-request-id": "trace-0123456789" } }, env);
      const b = await app.request("http://localhost/work", {}, env);
      await Promise.all(deferred);
      expect(a.headers.get("x-request-id")).toBe("trace-0123456789");
      const idB = b.headers.get("x-request-id");
      expect(lines.filter((l) => l.requestId === "trace-0123456789").map((l) => l.message).sort()).toEqual(["after the answer", "in the handler"]);
      expect(lines.filter((l) => l.requestId === idB).map((l) => l.message).sort()).toEqual(["after the answer", "in the handler"]);
      expect(lines).toHaveLength(4);
    } finally {
      restore();
    }
  });
});
