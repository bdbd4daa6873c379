// The first roll-up run of a database (no coverage recorded) rolls up the recent history, so a new
// deployment or a fresh demo database reads its counts from roll-ups; later runs recompute only the
// last few days. A file of its own: each test file gets a fresh D1, and this needs one never rolled up.
import { describe, expect, it } from "vitest";
import { addDays } from "@shared/ny-time";
import { FIRST_RUN_DAYS, RECOMPUTE_DAYS, runRollups } from "./rollups";
import { db, testShards } from "../test/helpers";

describe("the first roll-up run", () => {
  it(`rolls up the last ${FIRST_RUN_DAYS} days, and the next run only the last ${RECOMPUTE_DAYS}`, async () => {
    const now = new Date("2026-11-23T10:00:00Z"); // 05:00 in New York: the run day is 2026-11-23
    const first = await runRollups({ db: db(), shards: testShards(), now });
    for (const run of first) {
      expect(run).toMatchObject({ fromDay: addDays("2026-11-23", -FIRST_RUN_DAYS), untilDay: "2026-11-23", days: FIRST_RUN_DAYS });
    }
    const next = await runRollups({ db: db(), shards: testShards(), now: new Date("2026-11-24T10:00:00Z") });
    for (const run of next) {
      // Coverage keeps its start; the run rebuilt the recent days (from the last run's end on).
      expect(run).toMatchObject({ fromDay: addDays("2026-11-23", -FIRST_RUN_DAYS), untilDay: "2026-11-24", days: RECOMPUTE_DAYS });
    }
  });
});
