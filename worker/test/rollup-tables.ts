// Every roll-up table's rows, for tests that compare runs of the roll-up job, a way to empty them,
// and rows of every source to roll up.
import { env } from "cloudflare:workers";
import type { Store } from "@shared/constants";
import { SPECS_BY_SOURCE } from "../services/counts/figures";
import { insertAgent, insertAircallCalls, insertAppointments, insertCallLogs, insertLeads, insertProfile } from "./factories";

const ROLLUP_TABLES = [
  ...Object.values(SPECS_BY_SOURCE).flatMap((specs) => specs.flatMap((spec) => [spec.rollupTable, ...(spec.hourlyTable ? [spec.hourlyTable] : [])])),
  "rollup_state",
  "rollup_dirty_days",
  "rollup_hour_state",
];

/** The directory and every test shard: each rolls up its own sources (decision 076). */
const DATABASES: [string, D1Database][] = [
  ["DB", env.DB],
  ["SHARD_0", env.SHARD_0],
  ["SHARD_1", env.SHARD_1],
];

/** Each database's roll-up tables it holds, as [database, table] pairs. */
async function tablesOf() {
  const out: [string, D1Database, string][] = [];
  for (const [name, d1] of DATABASES) {
    for (const t of ROLLUP_TABLES) if (await d1.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").bind(t).first()) out.push([name, d1, t]);
  }
  return out;
}

/** Each roll-up table's rows in every database (keyed `database.table`), serialised and sorted, so two runs compare as plain data. */
export async function dumpRollups() {
  const out: Record<string, string[]> = {};
  for (const [name, d1, t] of await tablesOf()) out[`${name}.${t}`] = (await d1.prepare(`SELECT * FROM ${t}`).all()).results.map((r) => JSON.stringify(r)).sort();
  return out;
}

export async function clearRollups() {
  for (const [, d1, t] of await tablesOf()) await d1.prepare(`DELETE FROM ${t}`).run();
}

/**
 * Rows of every roll-up source in a window: a profile with one outbound agent in `store`, 200 of its
 * calls, 100 Aircall calls, 100 appointments (as of `nowMs`) and 60 leads.
 */
export async function seedRollupSources(store: Store, window: { fromMs: number; toMs: number }, nowMs: number) {
  const user = await insertProfile();
  const agent = await insertAgent(user.id, {}, { store, type: "outbound" });
  const ref = { id: agent.id, vapiAssistantId: agent.vapiAssistantId, store: agent.store, type: "outbound" as const };
  await insertCallLogs(user.id, 200, {}, { agent: ref, window });
  await insertAircallCalls(100, {}, { window });
  await insertAppointments(100, {}, { window, nowMs });
  await insertLeads(60, {}, { window });
  return user;
}
