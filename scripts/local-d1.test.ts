// scripts/local-d1.mjs: each local D1 database's SQLite file, named as Miniflare names it, checked by content.
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// Taken at run time: this project's test bundler cannot bundle node:sqlite (Node 22's SQLite).
const { DatabaseSync } = process.getBuiltinModule("node:sqlite");

type Binding = { binding: string; databaseId: string };
// The scripts are plain .mjs outside the typed projects: imported by a path built at run time.
const { durableObjectIdFromName, localD1Files, localD1Path } = (await import(/* @vite-ignore */ `./${"local-d1.mjs"}`)) as {
  durableObjectIdFromName: (uniqueKey: string, name: string) => string;
  localD1Path: (stateDir: string, databaseId: string) => string;
  localD1Files: (sqlite: unknown, stateDir: string, bindings: Binding[]) => { directory: string; shards: { name: string; file: string }[] };
};

const bindings: Binding[] = [
  { binding: "DB", databaseId: "00000000-0000-4000-8000-000000000001" },
  { binding: "SHARD_0", databaseId: "00000000-0000-4000-8000-000000000100" },
  { binding: "SHARD_1", databaseId: "00000000-0000-4000-8000-000000000101" },
];

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A state directory with a SQLite file holding `table` for each binding given. */
function state(tables: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "local-d1-"));
  dirs.push(dir);
  for (const [binding, table] of Object.entries(tables)) {
    const file = localD1Path(dir, bindings.find((b) => b.binding === binding)!.databaseId);
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY)`);
    db.close();
  }
  return dir;
}

describe("local D1 files", () => {
  it("names a database's file as wrangler made it for this project's database ids", () => {
    // The files `wrangler d1 migrations apply --local` wrote for DB and SHARD_0 of wrangler.toml.
    expect(durableObjectIdFromName("miniflare-D1DatabaseObject", "00000000-0000-4000-8000-000000000001")).toBe(
      "37202af4a48e51a6f9bf1676145f85cdbaaf76a4a51b95f5120b328bf5460e72",
    );
    expect(durableObjectIdFromName("miniflare-D1DatabaseObject", "00000000-0000-4000-8000-000000000100")).toBe(
      "263c2e310e590ac7ed6b731009c7813d618f8cd49959bc71e3530cb21413ba64",
    );
  });

  it("finds the directory's and every shard's file, shards in their numbers' order", () => {
    const dir = state({ DB: "profiles", SHARD_0: "call_search_docs", SHARD_1: "call_search_docs" });
    const found = localD1Files(DatabaseSync, dir, [bindings[0], bindings[2], bindings[1]]);
    expect(found.directory).toBe(localD1Path(dir, bindings[0].databaseId));
    expect(found.shards).toEqual([
      { name: "SHARD_0", file: localD1Path(dir, bindings[1].databaseId) },
      { name: "SHARD_1", file: localD1Path(dir, bindings[2].databaseId) },
    ]);
  });

  it("names the binding whose file is missing or holds another kind of database", () => {
    expect(() => localD1Files(DatabaseSync, state({ DB: "profiles", SHARD_0: "call_search_docs" }), bindings)).toThrow(/^SHARD_1 has no local database .*npm run db:migrate/);
    expect(() => localD1Files(DatabaseSync, state({ DB: "profiles", SHARD_0: "call_search_docs", SHARD_1: "profiles" }), bindings)).toThrow(/should be SHARD_1, a shard/);
  });
});
