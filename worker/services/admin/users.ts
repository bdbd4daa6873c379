// The admin user list and account flags (docs/product/admin.md#user-management User Management; docs/decisions/018-admin-users.md).
// The list reads profiles (every account that has signed in has one): keyset pages newest first, a
// prefix search on email, username and company through their lower() indexes, and each page's
// agent, call and minute figures for its own accounts only (calls from the roll-ups).
import { and, count, eq, sql } from "drizzle-orm";
import { ADMIN_API_TEXT } from "@shared/messages";
import type { AccountFlags, AdminFlagsBody, AdminUser, AdminUsersResponse } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
import { profiles } from "../../db/schema";
import { badRequest, conflict, notFound, shardUnavailable } from "../../lib/errors";
import type { IdentityPort } from "../../providers/identity/port";
import { figureStatements } from "../counts/engine";
import { callLogUserSpec } from "../counts/figures";
import { DbMeter } from "../counts/meter";
import { phoneCallsAndSeconds } from "../counts/month";
import { auditStatement, type AdminActor } from "./audit-log";
import { eachShardMeter, failedShards, overAllTime, toMinutes } from "./stats";

type ProfileRow = typeof profiles.$inferSelect;

// ---- cursor ----------------------------------------------------------------------------------

const b64url = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function encodeUserCursor(createdAt: string, id: string) {
  return b64url(JSON.stringify([createdAt, id]));
}

export function decodeUserCursor(cursor: string): [string, string] {
  try {
    const bin = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const v = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0))));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string") return [v[0], v[1]];
  } catch {
    // fall through
  }
  throw badRequest("Cursor is not valid", "cursor");
}

/** The first string after every string starting with `prefix` (UTF-8 keeps code-point order). */
export function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1)!;
  const head = prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1));
  return head + String.fromCodePoint(last + 1);
}

// ---- the list ---------------------------------------------------------------------------------

/**
 * A search matching at least this many accounts walks the newest-first index and filters (matches
 * are dense, so a page is found after a few thousand rows at most); fewer are collected by seeks.
 */
export const DENSE_SEARCH_MATCHES = 2000;

const prefixRanges = (column: string) => `(lower(${column}) >= ? AND lower(${column}) < ?)`;

/**
 * Roughly how many accounts a search matches: each column's prefix range counted no further than
 * DENSE_SEARCH_MATCHES (an account matching on two columns counts twice; it only picks the plan).
 */
export function searchMatchCountSql(search: string) {
  const hi = prefixEnd(search);
  const capped = (column: string) => `(SELECT count(*) FROM (SELECT 1 FROM profiles WHERE ${prefixRanges(column)} LIMIT ${DENSE_SEARCH_MATCHES}))`;
  return {
    sql: `SELECT ${capped("email")} + ${capped("username")} + ${capped("company")} AS n`,
    params: [search, hi, search, hi, search, hi],
  };
}

/**
 * The SQL of one page, newest first after the cursor. A search is either "seek": the matching ids from
 * three index ranges (lower(email), lower(username), lower(company)), then the newest of them; or
 * "walk": the newest-first index read in order, each row checked, stopping at the page's end.
 */
export function userPageSql(q: { search?: string; cursor?: [string, string]; limit: number; plan?: "seek" | "walk" }) {
  const params: unknown[] = [];
  const where: string[] = [];
  let from = "profiles p";
  if (q.search) {
    const lo = q.search;
    const hi = prefixEnd(lo);
    if (q.plan === "walk") {
      from = "profiles p INDEXED BY profiles_created_idx";
      where.push(`(${prefixRanges("p.email")} OR ${prefixRanges("p.username")} OR ${prefixRanges("p.company")})`);
    } else {
      where.push(
        `p.id IN (SELECT id FROM profiles WHERE ${prefixRanges("email")}` +
          ` UNION SELECT id FROM profiles WHERE ${prefixRanges("username")}` +
          ` UNION SELECT id FROM profiles WHERE ${prefixRanges("company")})`,
      );
    }
    params.push(lo, hi, lo, hi, lo, hi);
  }
  if (q.cursor) {
    where.push("(p.created_at < ? OR (p.created_at = ? AND p.id < ?))");
    params.push(q.cursor[0], q.cursor[0], q.cursor[1]);
  }
  params.push(q.limit + 1);
  return {
    sql:
      `SELECT p.id, p.email, p.username, p.company, p.created_at, p.is_admin, p.shopwindows_info, p.call_app, p.shard FROM ${from}` +
      (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
      " ORDER BY p.created_at DESC, p.id DESC LIMIT ?",
    params,
  };
}

type PageRow = {
  id: string;
  email: string;
  username: string | null;
  company: string | null;
  created_at: string;
  is_admin: number;
  shopwindows_info: number;
  call_app: number;
  shard: string | null;
};

/** The admin's databases: a meter over the directory, and one over any shard by its binding's name. */
export type AdminDatabases = { directory: DbMeter; shard: (name: string) => DbMeter };

export async function listAdminUsers(dbs: AdminDatabases, q: { search?: string; cursor?: string; limit: number }, now = new Date()): Promise<AdminUsersResponse> {
  const cursor = q.cursor ? decodeUserCursor(q.cursor) : undefined;
  const count = q.search ? searchMatchCountSql(q.search) : null;
  const pageOf = (plan: "seek" | "walk") => pageWithFigures(dbs, userPageSql({ search: q.search, cursor, limit: q.limit, plan }), q.limit, now, count);
  // A search starts as a seek and is read again as a walk when the count, read in the same batch,
  // finds its matches dense.
  let page = await pageOf("seek");
  if ((page.matches ?? 0) >= DENSE_SEARCH_MATCHES) page = await pageOf("walk");
  const { rows, users, failed } = page;
  const last = rows[Math.min(rows.length, q.limit) - 1];
  return { users, nextCursor: rows.length > q.limit && last ? encodeUserCursor(last.created_at, last.id) : null, ...(failed.length ? { failedShards: failed } : {}) };
}

/**
 * A page of accounts with their agent, call and minute figures, for the page's own accounts only
 * (O(accounts x days), never every call): the page and its agent counts (with `count`, how many
 * accounts the search matches too) in one directory batch, then the call figures of the page's
 * accounts from the shards holding them, every shard at once (see overAllTime), the accounts given as
 * one JSON parameter. A shard that fails is named in `failed`; its accounts show 0 calls.
 */
async function pageWithFigures(dbs: AdminDatabases, page: { sql: string; params: unknown[] }, shown: number, now: Date, count?: { sql: string; params: unknown[] } | null) {
  const ids = `SELECT id FROM (${page.sql})`;
  const { directory } = dbs;
  const [pageRows, agentRows, ...rest] = await directory.batch([
    directory.statement(page.sql, page.params),
    directory.statement(`SELECT user_id AS k, count(*) AS n FROM agents WHERE user_id IN (${ids}) GROUP BY user_id`, page.params),
    ...(count ? [directory.statement(count.sql, count.params)] : []),
  ]);
  const rows = pageRows as unknown as PageRow[];
  const matches = count ? Number(rest[0][0]?.n ?? 0) : null;
  const byShard = new Map<string, string[]>();
  for (const r of rows.slice(0, shown)) if (r.shard) byShard.set(r.shard, [...(byShard.get(r.shard) ?? []), r.id]);
  const outcomes = await eachShardMeter(
    [...byShard.keys()].map((name) => ({ name, meter: dbs.shard(name) })),
    (s) =>
      overAllTime(s.meter, now, (coverage) => {
        // Not `+r.user_id`: the account's (user_id, start_time) index is the narrow one, in both tables.
        // By account and direction: the calls are phone calls, the minutes every call's (phoneCallsAndSeconds).
        const accounts = [{ sql: "r.user_id IN (SELECT value FROM json_each(?))", params: [JSON.stringify(byShard.get(s.name))] }];
        return figureStatements(s.meter, callLogUserSpec, coverage, ["total", "duration_seconds"], accounts, ["user_id", "direction"]);
      }),
  );
  const agentCounts = new Map(agentRows.map((r) => [String(r.k), Number(r.n)]));
  const byUser = new Map<string, [string, { total: number; duration_seconds: number }][]>();
  for (const o of outcomes) {
    if (!o.ok) continue;
    for (const [key, f] of o.value) {
      const [userId, direction] = key.split("|");
      byUser.set(userId, [...(byUser.get(userId) ?? []), [direction, f]]);
    }
  }
  const users = rows.slice(0, shown).map((r) => {
    const { calls, duration_seconds } = phoneCallsAndSeconds(byUser.get(r.id) ?? []);
    return toAdminUser(r, agentCounts.get(r.id) ?? 0, calls, duration_seconds);
  });
  return { rows, users, matches, failed: failedShards(outcomes) };
}

function toAdminUser(r: PageRow, assistants: number, calls: number, seconds: number): AdminUser {
  return {
    id: r.id,
    email: r.email,
    username: r.username,
    company: r.company,
    user_metadata: { username: r.username, company: r.company },
    app_metadata: { is_admin: Boolean(r.is_admin), shopwindows_info: Boolean(r.shopwindows_info), call_app: Boolean(r.call_app) },
    created_at: r.created_at,
    total_assistants: assistants,
    total_calls: calls,
    total_minutes: toMinutes(seconds),
  };
}

/**
 * One account as the list shows it. Its figures come from its shard alone: when that shard fails,
 * the answer cannot leave them out unnoticed, so it is a 503 naming the shard (decision 079).
 */
export async function adminUserById(dbs: AdminDatabases, id: string, now = new Date()): Promise<AdminUser> {
  const page = { sql: "SELECT id, email, username, company, created_at, is_admin, shopwindows_info, call_app, shard FROM profiles WHERE id = ?", params: [id] };
  const { users, failed } = await pageWithFigures(dbs, page, 1, now);
  if (failed.length) throw shardUnavailable(failed);
  if (!users[0]) throw notFound(ADMIN_API_TEXT.userIdNotFound);
  return users[0];
}

// ---- admins ------------------------------------------------------------------------------------

/** Admins other than `exceptIds` (profiles_admin_idx: a partial index of admins only). */
export async function otherAdminCount(db: Database, exceptIds: string[]): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(profiles)
    .where(and(eq(profiles.isAdmin, true), exceptIds.length ? sql`${profiles.id} NOT IN ${exceptIds}` : undefined))
    .get();
  return row?.n ?? 0;
}

// ---- flags -------------------------------------------------------------------------------------

const FLAG_COLUMNS = { is_admin: "isAdmin", shopwindows_info: "shopwindowsInfo", call_app: "callApp" } as const;

export function flagsOf(row: Pick<ProfileRow, "isAdmin" | "shopwindowsInfo" | "callApp">): AccountFlags {
  return { is_admin: row.isAdmin, shopwindows_info: row.shopwindowsInfo, call_app: row.callApp };
}

/**
 * Grants or revokes flags: written where they are read (the identity's app_metadata, and the profile
 * that mirrors it), with the audit entry, in one batch. An admin cannot revoke their own admin flag,
 * nor the last admin's.
 */
export async function setUserFlags(
  deps: { db: Database; dbs: AdminDatabases; identity: IdentityPort },
  actor: AdminActor,
  userId: string,
  body: AdminFlagsBody,
): Promise<AdminUser> {
  const { db } = deps;
  // The account, the other admins and the account as the list shows it, read together: flags change
  // none of the list's figures, so its row after the change is this one with the new flags. The
  // list's row goes on to the account's shard while the checks and the write run: awaited after it.
  const listing = adminUserById(deps.dbs, userId).catch(() => null);
  const [target, otherAdmins] = await Promise.all([db.query.profiles.findFirst({ where: eq(profiles.id, userId) }), otherAdminCount(db, [userId])]);
  if (!target) throw notFound(ADMIN_API_TEXT.userIdNotFound);
  if (body.is_admin === false && target.isAdmin) {
    if (target.id === actor.id) throw conflict(ADMIN_API_TEXT.cannotRevokeOwnAdmin, "is_admin");
    if (otherAdmins === 0) throw conflict(ADMIN_API_TEXT.cannotRevokeLastAdmin, "is_admin");
  }
  const before = flagsOf(target);
  const now = new Date().toISOString();
  const changes: Partial<Record<(typeof FLAG_COLUMNS)[keyof typeof FLAG_COLUMNS], boolean>> = {};
  for (const [flag, column] of Object.entries(FLAG_COLUMNS) as [keyof typeof FLAG_COLUMNS, (typeof FLAG_COLUMNS)[keyof typeof FLAG_COLUMNS]][]) {
    if (body[flag] !== undefined) changes[column] = body[flag];
  }
  const identityWrites = await deps.identity.setAppFlags(userId, body);
  const [, listed] = await Promise.all([
    db.batch([
      db.update(profiles).set({ ...changes, flagsUpdatedAt: now, updatedAt: now }).where(eq(profiles.id, userId)),
      ...identityWrites,
      auditStatement(db, actor, "set_flags", { id: target.id, email: target.email }, { before, after: { ...before, ...body } }),
    ]),
    listing,
  ]);
  if (!listed) return adminUserById(deps.dbs, userId);
  const flags = { ...listed.app_metadata };
  for (const flag of Object.keys(FLAG_COLUMNS) as (keyof typeof FLAG_COLUMNS)[]) if (body[flag] !== undefined) flags[flag] = body[flag];
  return { ...listed, app_metadata: flags };
}

export async function profilesByEmail(db: Database, email: string) {
  return db.select().from(profiles).where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);
}

