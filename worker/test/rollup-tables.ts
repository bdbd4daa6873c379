// Every roll-up table's rows, for tests that compare runs of the roll-up job, and a way to empty them.
import { env } from "cloudflare:workers";
import { SPECS_BY_SOURCE } from "../services/counts/figures";

const ROLLUP_TABLES = [...Object.values(SPECS_BY_SOURCE).flatMap((specs) => specs.map((spec) => spec.rollupTable)), "rollup_state", "rollup_dirty_days"];

/** Each roll-up table's rows, serialised and sorted, so two runs compare as plain data. */
export async function dumpRollups() {
  const out: Record<string, string[]> = {};
  for (const t of ROLLUP_TABLES) out[t] = (await env.DB.prepare(`SELECT * FROM ${t}`).all()).results.map((r) => JSON.stringify(r)).sort();
  return out;
}

export async function clearRollups() {
  for (const t of ROLLUP_TABLES) await env.DB.prepare(`DELETE FROM ${t}`).run();
}
