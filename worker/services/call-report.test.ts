// The call report's pages: each starts where the last one ended, in the index, so a report of a
// million rows reads each row about once (bench: a 90-day report of 965,568 calls).
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { insertCallLogs, insertProfile } from "../test/factories";
import { db, shardOf } from "../test/helpers";
import { callReportCursor, callReportPages, type CallReportCursor } from "./call-report";

/** A D1 binding that records each statement bound through it with its parameters. */
function recordingD1(d1: D1Database, seen: { text: string; params: unknown[] }[]): D1Database {
  return new Proxy(d1, {
    get(target, prop) {
      if (prop !== "prepare") {
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (text: string) => {
        const statement = target.prepare(text);
        return new Proxy(statement, {
          get(s, p) {
            if (p === "bind") {
              return (...params: unknown[]) => {
                seen.push({ text, params });
                return s.bind(...params);
              };
            }
            const value = Reflect.get(s, p) as unknown;
            return typeof value === "function" ? value.bind(s) : value;
          },
        });
      };
    },
  });
}

describe("callReportPages", () => {
  it("reads each page from where the last one ended, not by stepping over the pages before it", async () => {
    const user = await insertProfile();
    const calls = await insertCallLogs(user.id, 1_000, { direction: "outbound" }, { day: "2026-05-04" });
    // Calls of the days either side, outside the range.
    await insertCallLogs(user.id, 200, { direction: "outbound" }, { day: "2026-05-03" });
    await insertCallLogs(user.id, 200, { direction: "outbound" }, { day: "2026-05-05" });
    const seen: { text: string; params: unknown[] }[] = [];
    // The calls are on the account's shard, the agents' names in the directory.
    const shard = (await shardOf(user.id)).$client;
    const read = callReportPages({ directory: db(), shard: createDb(recordingD1(shard, seen)) }, user.id, {
      dateFilterType: "range",
      startDate: "2026-05-04",
      endDate: "2026-05-04",
      agent: undefined,
      callType: "Outbound",
    });
    const ids: number[] = [];
    let cursor: CallReportCursor | null = null;
    for (;;) {
      const page = await read(cursor, 100);
      if (page.length === 0) break;
      ids.push(...page.map((r) => r.id));
      cursor = callReportCursor(page[page.length - 1]);
    }
    expect(ids.toSorted((a, b) => a - b)).toEqual(calls.map((c) => c.id).toSorted((a, b) => a - b));

    // D1's rows read by each page's statement, run again with its parameters.
    const pages = seen.filter((s) => /from "call_logs"/.test(s.text));
    expect(pages).toHaveLength(11);
    const rowsRead: number[] = [];
    for (const { text, params } of pages) {
      rowsRead.push((await shard.prepare(text).bind(...params).all()).meta.rows_read);
    }
    // A page reads its own rows and the one that ends it, wherever it is in the range: the tenth
    // page read about 1,000 rows when each page stepped over the ones before it.
    expect(Math.max(...rowsRead), rowsRead.join(",")).toBeLessThanOrEqual(2 * 100 + 2);
  });
});
