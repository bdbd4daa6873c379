// The demo accounts on different shards (decision 076): every local session reads its calls from one
// shard while the admin's figures and the jobs cross to the other, so every path crosses shards.
import { describe, expect, it } from "vitest";
import { DEMO_EMAILS, buildSeed, demoShards } from "./seed-data";

describe("the seed's shards", () => {
  it("puts the store network's accounts on the first shard and the customer on the last", () => {
    expect(demoShards(["SHARD_0", "SHARD_1"])).toEqual({ admin: "SHARD_0", staff: "SHARD_0", customer: "SHARD_1" });
    expect(demoShards(["SHARD_0", "SHARD_1", "SHARD_2"])).toEqual({ admin: "SHARD_0", staff: "SHARD_0", customer: "SHARD_2" });
    // No shard known: the directory's trigger places them.
    expect(demoShards([])).toEqual({ admin: null, staff: null, customer: null });
  });

  it("gives every demo profile its shard, and calls on both shards", () => {
    const seed = buildSeed({ calls: 2_000, days: 7, shards: ["SHARD_0", "SHARD_1"], now: new Date("2026-03-10T18:00:00Z") });
    const shardOf = new Map(seed.profiles.map((p) => [p.id, p.shard]));
    expect(Object.fromEntries(seed.profiles.map((p) => [p.email, p.shard]))).toEqual({
      [DEMO_EMAILS.admin]: "SHARD_0",
      [DEMO_EMAILS.staff]: "SHARD_0",
      [DEMO_EMAILS.customer]: "SHARD_1",
    });
    const callsOn = new Map<string, number>();
    for (const chunk of seed.callLogChunks(500)) {
      for (const row of chunk) {
        const shard = shardOf.get(row.userId!) ?? "none";
        callsOn.set(shard, (callsOn.get(shard) ?? 0) + 1);
      }
    }
    expect(callsOn.get("none")).toBeUndefined();
    expect(callsOn.get("SHARD_0")).toBeGreaterThan(0);
    expect(callsOn.get("SHARD_1")).toBeGreaterThan(0);
    expect((callsOn.get("SHARD_0") ?? 0) + (callsOn.get("SHARD_1") ?? 0)).toBe(2_000);
  });
});
