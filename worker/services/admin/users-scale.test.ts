// The admin user list with 100,000 accounts: query plans that seek (no scan of profiles), keyset
// pages as cheap deep as at the start, and the time each query takes here (printed, not asserted:
// wall-clock limits make flaky tests; the plans are what must hold).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fullScans } from "../../test/explain";
import { testAdminDatabases } from "../../test/admin-databases";
import { decodeUserCursor, listAdminUsers, searchMatchCountSql, userPageSql } from "./users";

const USERS = 100_000;

beforeAll(async () => {
  // One statement generates them all: created_at spread over ~3 years, every 50th account an admin.
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO profiles (id, email, username, company, is_admin, created_at, updated_at)
     SELECT printf('u%06d', i), printf('user%06d@example%d.com', i, i % 97), printf('name%06d', i), printf('Company %d', i % 5000),
            i % 50 = 0, strftime('%Y-%m-%dT%H:%M:%fZ', '2023-01-01', printf('+%d minutes', i * 15)), '2026-01-01T00:00:00.000Z'
     FROM n`,
  )
    .bind(USERS)
    .run();
  await env.DB.prepare("ANALYZE").run();
}, 120_000);

async function timed<T>(fn: () => Promise<T>, runs = 5): Promise<{ value: T; medianMs: number }> {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { value, medianMs: Math.round(times[Math.floor(runs / 2)] * 10) / 10 };
}

async function plan(q: Parameters<typeof userPageSql>[0] | { count: string }) {
  const { sql, params } = "count" in q ? searchMatchCountSql(q.count) : userPageSql(q);
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

describe(`the admin user list with ${USERS.toLocaleString("en-US")} accounts`, () => {
  it("reads pages and searches through indexes, never scanning profiles", async () => {
    const deep = decodeUserCursor((await listAdminUsers(testAdminDatabases(), { limit: 25 })).nextCursor!);
    // Walking the newest-first index in order is no scan: it stops at the page's end (LIMIT).
    const ordered = (lines: string[]) => fullScans(lines).filter((l) => l !== "SCAN p USING INDEX profiles_created_idx" && !/^SCAN \(subquery-\d+\)$/.test(l));
    for (const q of [
      { limit: 25 },
      { limit: 25, cursor: deep },
      { limit: 25, search: "user0500", plan: "seek" as const },
      { limit: 25, search: "company 12", cursor: deep, plan: "seek" as const },
      { limit: 25, search: "user0", plan: "walk" as const },
      { count: "user0" },
    ]) {
      const lines = await plan(q);
      expect(ordered(lines), JSON.stringify({ q, lines })).toEqual([]);
      expect(lines.join("\n")).not.toMatch(/SCAN (p|profiles)$/m);
    }
    // The seek plan's three prefix ranges are index seeks.
    const lines = (await plan({ limit: 25, search: "name", plan: "seek" })).join("\n");
    expect(lines).toMatch(/profiles_email_idx/);
    expect(lines).toMatch(/profiles_username_idx/);
    expect(lines).toMatch(/profiles_company_idx/);
  });

  it("measures first page, page 200 by cursor, and searches", async () => {
    const first = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25 }));
    expect(first.value.users).toHaveLength(25);
    expect(first.value.users[0].id).toBe("u100000");
    let cursor = first.value.nextCursor!;
    for (let page = 2; page < 200; page++) cursor = (await listAdminUsers(testAdminDatabases(), { limit: 25, cursor })).nextCursor!;
    const deep = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25, cursor }));
    expect(deep.value.users[0].id).toBe(`u${String(USERS - 199 * 25).padStart(6, "0")}`);
    const exact = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25, search: "user042424@" }));
    expect(exact.value.users.map((u) => u.id)).toEqual(["u042424"]);
    const broad = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25, search: "user0" }));
    expect(broad.value.users).toHaveLength(25);
    expect(broad.value.nextCursor).not.toBeNull();
    const mid = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25, search: "name0001" }));
    expect(mid.value.users).toHaveLength(25);
    const none = await timed(() => listAdminUsers(testAdminDatabases(), { limit: 25, search: "zzz" }));
    expect(none.value.users).toEqual([]);
    console.log(
      `admin users, ${USERS} profiles (median of 5, ms): first page ${first.medianMs}, page 200 ${deep.medianMs}, ` +
        `exact email ${exact.medianMs}, prefix matching all ("user0") ${broad.medianMs}, ` +
        `prefix matching 1,000 ("name0001") ${mid.medianMs}, no match ${none.medianMs}`,
    );
  }, 120_000);
});
