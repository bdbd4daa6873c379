// npm run deploy:check's check of the D1 bindings: the directory and the shards SHARD_0 … without a
// gap, each shard from migrations-shard/ with a database of its own, each listed by the dry run.
import { describe, expect, it } from "vitest";
import { rootRelativeDirs, shardBindingProblems } from "./shard-bindings.mjs";

type Db = { binding: string; database_id?: string; migrations_dir?: string };

const directory: Db = { binding: "DB", database_id: "00000000-0000-4000-8000-000000000001", migrations_dir: "migrations" };
const shard = (n: number, extra: Partial<Db> = {}): Db => ({
  binding: `SHARD_${n}`,
  database_id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, "0")}`,
  migrations_dir: "migrations-shard",
  ...extra,
});

/** The binding table `wrangler deploy --dry-run` prints, one row per binding. */
const dryRun = (bindings: string[]) =>
  [
    "Your Worker has access to the following bindings:",
    "Binding                                      Resource",
    ...bindings.map((b) => `env.${b} (voice-agent-ops-${b.toLowerCase()})        D1 Database`),
    "env.LIVE_FEED (LiveFeed)                     Durable Object",
    "--dry-run: exiting now.",
  ].join("\n");

const problems = (dbs: Db[], listed = dbs.map((d) => d.binding)) => shardBindingProblems(dbs, dryRun(listed)) as string[];

describe("shardBindingProblems", () => {
  it("accepts the directory and shards numbered from 0, each from migrations-shard with its own database and listed", () => {
    expect(problems([directory, shard(0), shard(1)])).toEqual([]);
    expect(problems([directory, shard(0), shard(1), shard(2), shard(3)])).toEqual([]);
  });

  it("names the gap when shard numbers do not run from 0 without one", () => {
    expect(problems([directory, shard(0), shard(2)])).toEqual([
      "SHARD_1 is missing: shards are numbered from SHARD_0 without a gap (bound: SHARD_0, SHARD_2)",
    ]);
    expect(problems([directory, shard(1)])).toEqual(["SHARD_0 is missing: shards are numbered from SHARD_0 without a gap (bound: SHARD_1)"]);
  });

  it("refuses a config with no shard, and a shard name the Worker would not read", () => {
    expect(problems([directory])).toEqual(["the config binds no shard: accounts' calls need SHARD_0 at least (wrangler.toml, docs/scale.md)"]);
    expect(problems([directory, shard(0), { ...shard(1), binding: "SHARD_01" }])).toEqual([
      "SHARD_01 is not a shard name: SHARD_ and a number without leading zeros (SHARD_0, SHARD_1, …)",
    ]);
  });

  it("names a shard migrated from another directory", () => {
    expect(problems([directory, shard(0), shard(1, { migrations_dir: "migrations" })])).toEqual([
      'SHARD_1 has migrations_dir "migrations": every shard is migrated from "migrations-shard"',
    ]);
    expect(problems([directory, shard(0, { migrations_dir: undefined })])).toEqual([
      'SHARD_0 has migrations_dir null: every shard is migrated from "migrations-shard"',
    ]);
  });

  it("names a shard sharing a database with another shard or the directory, and one without an id", () => {
    expect(problems([directory, shard(0), shard(1, { database_id: shard(0).database_id })])).toEqual([
      `SHARD_1 has the database_id of SHARD_0 (${shard(0).database_id}): each shard is a database of its own`,
    ]);
    expect(problems([directory, shard(0, { database_id: directory.database_id })])).toEqual([
      `SHARD_0 has the database_id of DB (${directory.database_id}): each shard is a database of its own`,
    ]);
    expect(problems([directory, shard(0, { database_id: undefined })])).toEqual(["SHARD_0 has no database_id"]);
  });

  it("names each binding the dry run does not list as a D1 database", () => {
    expect(problems([directory, shard(0), shard(1)], ["DB", "SHARD_0"])).toEqual(["the dry run lists no D1 binding env.SHARD_1"]);
    expect(problems([directory, shard(0)], ["SHARD_0"])).toEqual(["the dry run lists no D1 binding env.DB"]);
    // SHARD_1 listed does not stand for SHARD_10.
    const ten = [directory, ...Array.from({ length: 11 }, (_, n) => shard(n))];
    expect(problems(ten, ten.map((d) => d.binding).filter((b) => b !== "SHARD_10"))).toEqual(["the dry run lists no D1 binding env.SHARD_10"]);
  });

  it("reads the built config's migrations_dir relative to the project's root", () => {
    const built = [{ ...shard(0), migrations_dir: "../../migrations-shard" }];
    expect(rootRelativeDirs(built, "/app/dist/voice_agent_ops", "/app")).toEqual([shard(0)]);
  });
});
