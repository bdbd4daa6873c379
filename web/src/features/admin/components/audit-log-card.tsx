// The audit log (beyond the spec): every audited action, newest first, read-only: admins' changes and
// customers' own API keys and webhook endpoints, each under who made it.
import { formatTimestamp } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import type { AuditEntry } from "@shared/schemas/admin";
import { TableCell, TableRow } from "@web/components/ui/table";
import { TableCard } from "./table-card";
import { useAuditLog } from "../api/admin";

/** A value of an audit entry as text: a list joined by commas, anything else as it prints. */
const auditValue = (v: unknown) => (Array.isArray(v) ? v.join(", ") : String(v));

/** One line of what changed, from the entry's detail. */
export function auditDetail(e: AuditEntry): string {
  const d = e.detail as Record<string, unknown>;
  switch (e.action) {
    case "set_phone_limit":
      return `${String(d.before)} → ${String(d.after)}`;
    case "assign_phone_number":
      return String(d.phone_number ?? "");
    case "set_flags": {
      const before = (d.before ?? {}) as Record<string, boolean>;
      const after = (d.after ?? {}) as Record<string, boolean>;
      return Object.entries(ADMIN_TEXT.flagLabels)
        .filter(([k]) => before[k] !== after[k])
        .map(([k, label]) => `${label} ${after[k] ? "on" : "off"}`)
        .join(", ");
    }
    case "create_api_key":
    case "revoke_api_key":
      return `${String(d.name ?? "")} (${String(d.prefix ?? "")})`;
    case "create_webhook_endpoint":
    case "delete_webhook_endpoint":
      return String(d.url ?? "");
    case "rotate_webhook_secret":
      return `${String(d.url ?? "")} (${String(d.secret_prefix ?? "")})`;
    case "update_webhook_endpoint": {
      // Each changed field with its value before and after: "url: a → b, enabled: true → false".
      const changes = Object.entries((d.changes ?? {}) as Record<string, { before: unknown; after: unknown }>)
        .map(([field, c]) => `${field}: ${auditValue(c.before)} → ${auditValue(c.after)}`)
        .join(", ");
      return `${String(d.url ?? "")}${changes ? ` · ${changes}` : ""}`;
    }
    case "delete_user": {
      const pool = (d.numbers_returned_to_pool as string[] | undefined)?.length ?? 0;
      return `${String(d.agents ?? 0)} agents, ${pool} numbers back to the pool`;
    }
    case "move_account_shard":
      return `${String(d.from ?? "")} → ${String(d.to ?? "")}`;
    case "set_shard_open":
      return `${String(d.shard ?? "")} ${d.open ? "open" : "closed"} to new accounts`;
  }
}

export function AuditLogCard() {
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const c = ADMIN_TEXT.auditColumns;
  return (
    <TableCard
      title={ADMIN_TEXT.auditLog}
      columns={[c.when, c.who, c.action, c.target, c.detail, c.ip]}
      states={{ query: log, empty: entries.length === 0, loadingLabel: "Loading the audit log", failedText: ADMIN_TEXT.auditFailed, emptyText: ADMIN_TEXT.noAudit, skeletonRows: 1 }}
      more={log}
    >
      {entries.map((e) => (
        <TableRow key={e.id}>
          <TableCell data-label={c.when} className="whitespace-nowrap">{formatTimestamp(e.created_at)}</TableCell>
          <TableCell data-label={c.who} className="[overflow-wrap:anywhere]">{e.actor_email}</TableCell>
          <TableCell data-label={c.action}>{ADMIN_TEXT.auditActions[e.action] ?? e.action}</TableCell>
          <TableCell data-label={c.target} className="[overflow-wrap:anywhere]">{e.target_email ?? "—"}</TableCell>
          <TableCell data-label={c.detail}>{auditDetail(e)}</TableCell>
          <TableCell data-label={c.ip} className="text-muted-foreground [overflow-wrap:anywhere]">{e.ip ?? "—"}</TableCell>
        </TableRow>
      ))}
    </TableCard>
  );
}
