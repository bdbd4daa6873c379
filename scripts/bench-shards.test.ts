// bench/shards.mjs's capacity arithmetic: bytes per call at a load, shards needed for two years under
// half of D1's limit, and days until the fullest shard reaches half.
import { describe, expect, it } from "vitest";

type Model = { perCall: number; rollupPerAccountDay: number; shardBase: number };
type Load = { accounts: number; callsPerDay: number };
type Row = Load & { bytesPerCall: number; callsInTwoYears: number; shardsNeeded: number; daysUntilHalf: { shards: number; days: number }[] };

// The bench's scripts are plain .mjs outside the typed projects: imported by a path built at run time.
const bench = (await import(/* @vite-ignore */ `../bench/${"shards.mjs"}`)) as {
  TWO_YEARS_DAYS: number;
  bytesPerCallAt: (model: Model, callsPerDay: number) => number;
  fullestShardAccounts: (accounts: number, shards: number) => number;
  daysUntilHalf: (model: Model, load: Load, shards: number, limitBytes: number) => number;
  shardsNeeded: (model: Model, load: Load, days: number, limitBytes: number) => number;
  capacityRows: (model: Model, limitBytes: number, loads?: Load[], shardCounts?: number[]) => Row[];
};

const LIMIT = 10 * 1000 ** 3; // D1's 10 GB (worker/db/shards.ts)
// Round figures: 5,000 bytes a call, 1,000 bytes of roll-ups an account a day, empty shards.
const model: Model = { perCall: 5_000, rollupPerAccountDay: 1_000, shardBase: 0 };

describe("the shards bench's capacity arithmetic", () => {
  it("spreads an account-day's roll-up rows over its calls", () => {
    expect(bench.bytesPerCallAt(model, 100)).toBe(5_010);
    expect(bench.bytesPerCallAt(model, 50)).toBe(5_020);
  });

  it("puts the odd accounts on the fullest shard", () => {
    expect(bench.fullestShardAccounts(1_000, 4)).toBe(250);
    expect(bench.fullestShardAccounts(1_001, 4)).toBe(251);
    expect(bench.fullestShardAccounts(3, 20)).toBe(1);
  });

  it("counts the days until the fullest shard holds half of the limit", () => {
    // 250 accounts × 100 calls × 5,010 bytes = 125.25 MB a day; 5 GB / that.
    expect(bench.daysUntilHalf(model, { accounts: 1_000, callsPerDay: 100 }, 4, LIMIT)).toBeCloseTo(5e9 / 125_250_000, 9);
    // An empty shard's own bytes come off the room.
    expect(bench.daysUntilHalf({ ...model, shardBase: 1e9 }, { accounts: 1_000, callsPerDay: 100 }, 4, LIMIT)).toBeCloseTo(4e9 / 125_250_000, 9);
  });

  it("names the fewest shards that keep every one under half for the days asked, and no fewer", () => {
    const load = { accounts: 1_000, callsPerDay: 100 };
    const n = bench.shardsNeeded(model, load, bench.TWO_YEARS_DAYS, LIMIT);
    // An account's two years: 100 × 730 × 5,010 bytes = 365.73 MB, so 13 fit under 5 GB and 1,000 need 77 shards.
    expect(n).toBe(77);
    expect(bench.daysUntilHalf(model, load, n, LIMIT)).toBeGreaterThanOrEqual(bench.TWO_YEARS_DAYS);
    expect(bench.daysUntilHalf(model, load, n - 1, LIMIT)).toBeLessThan(bench.TWO_YEARS_DAYS);
  });

  it("says no number of shards holds an account that alone passes half", () => {
    expect(bench.shardsNeeded({ ...model, perCall: 1e6 }, { accounts: 10, callsPerDay: 100 }, bench.TWO_YEARS_DAYS, LIMIT)).toBe(Infinity);
  });

  it("builds one row per load: 1,000 accounts × 100 calls a day for two years is 73 million calls", () => {
    const rows = bench.capacityRows(model, LIMIT, [{ accounts: 1_000, callsPerDay: 100 }], [4, 200]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accounts: 1_000, callsPerDay: 100, bytesPerCall: 5_010, callsInTwoYears: 73_000_000, shardsNeeded: 77 });
    expect(rows[0].daysUntilHalf.map((d) => d.shards)).toEqual([4, 200]);
    // 200 shards: 5 accounts on the fullest.
    expect(rows[0].daysUntilHalf[1].days).toBeCloseTo(5e9 / (5 * 100 * 5_010), 9);
  });
});
