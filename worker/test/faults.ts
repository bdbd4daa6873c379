// Test helpers for the fault proofs: arm a stand-in fault under a key, read what the stand-in saw,
// and snapshot D1 (every table's rows) to show a failure left nothing half written.
import { env } from "cloudflare:workers";
import type { FaultMode } from "./standins/server";

export type Seen = { method: string; path: string; idempotencyKey: string | null; at: number };

export async function armFault(standinUrl: string, key: string, mode: FaultMode, count: number, retryAfter = "0") {
  const res = await fetch(`${standinUrl}/__faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, mode, count, retryAfter }),
  });
  if (res.status !== 204) throw new Error(`arming ${mode} failed: ${res.status}`);
}

export async function seenBy(standinUrl: string, key: string): Promise<Seen[]> {
  return ((await (await fetch(`${standinUrl}/__faults/${key}`)).json()) as { seen: Seen[] }).seen;
}

/** Tables whose rows are bookkeeping of the request itself, not the product's data. */
const BOOKKEEPING = new Set(["rate_limits", "d1_migrations", "_cf_KV", "_cf_METADATA", "sqlite_sequence"]);

/** Every product table's full contents, for before/after comparison. */
export async function snapshotD1(only?: string[]): Promise<Record<string, unknown[]>> {
  const tables = (await env.DB.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all<{ name: string }>()).results
    .map((r) => r.name)
    .filter((n) => !BOOKKEEPING.has(n) && !n.startsWith("_cf") && (!only || only.includes(n)));
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = (await env.DB.prepare(`select * from "${t}" order by rowid`).all()).results;
  return out;
}
