// The admin audit log (docs/decisions/018-admin-users.md): one row per admin action, built as a
// statement for the action's own batch so the action and its record commit together or not at all.
// Append-only: nothing here updates or deletes, and triggers refuse it.
import { and, desc, lt, sql, type SQL } from "drizzle-orm";
import type { AuditAction, AuditEntry, AuditLogResponse } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
import { adminAuditLog } from "../../db/schema";

/** Who acted, and from where. */
export type AdminActor = { id: string; email: string; ip: string | null };

export function auditStatement(
  db: Database,
  actor: AdminActor,
  action: AuditAction,
  target: { id: string | null; email: string | null } | null,
  detail: Record<string, unknown> = {},
  /** Record only when this holds after the batch's earlier statements (the action took effect). */
  onlyIf?: SQL,
) {
  if (onlyIf) {
    // INSERT ... SELECT over every column in table order (a null id takes the next one).
    return db.insert(adminAuditLog).select(
      sql`select null, ${actor.id}, ${actor.email}, ${action}, ${target?.id ?? null}, ${target?.email ?? null}, ${JSON.stringify(detail)},
        ${actor.ip}, ${new Date().toISOString()} where ${onlyIf}`,
    );
  }
  return db.insert(adminAuditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetUserId: target?.id ?? null,
    targetEmail: target?.email ?? null,
    detail,
    ip: actor.ip,
    createdAt: new Date().toISOString(),
  });
}

/** Newest first, keyset pages on the id (ids only grow). */
export async function listAuditLog(db: Database, q: { before?: number; limit: number }): Promise<AuditLogResponse> {
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(and(q.before ? lt(adminAuditLog.id, q.before) : undefined))
    .orderBy(desc(adminAuditLog.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const entries: AuditEntry[] = page.map((r) => ({
    id: r.id,
    created_at: r.createdAt,
    actor_email: r.actorEmail,
    action: r.action as AuditAction,
    target_email: r.targetEmail,
    detail: r.detail,
    ip: r.ip,
  }));
  return { entries, nextCursor: rows.length > q.limit ? page[page.length - 1].id : null };
}
