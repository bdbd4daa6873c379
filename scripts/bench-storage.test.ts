// bench/storage.mjs's storageTable: every table's pages with all of its indexes', per row, from dbstat.
import { describe, expect, it } from "vitest";

// Taken at run time: this project's test bundler cannot bundle node:sqlite (Node 22's SQLite).
const { DatabaseSync } = process.getBuiltinModule("node:sqlite");

type Row = { table: string; rows: number; tableBytes: number; indexBytes: number; perRow: number | null };

// The bench's scripts are plain .mjs outside the typed projects: imported by a path built at run time.
const { storageTable } = (await import(/* @vite-ignore */ `../bench/${"storage.mjs"}`)) as {
  storageTable: (db: unknown, tables?: string[]) => Row[];
};

function database() {
  const db = new DatabaseSync(":memory:");
  db.exec(`
    PRAGMA page_size = 4096;
    CREATE TABLE calls (id INTEGER PRIMARY KEY, user_id TEXT, transcript TEXT);
    CREATE INDEX calls_user_idx ON calls (user_id, id);
    CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY, name TEXT);
    CREATE TABLE empty (id INTEGER PRIMARY KEY);
  `);
  const insert = db.prepare("INSERT INTO calls (user_id, transcript) VALUES (?, ?)");
  for (let i = 0; i < 2000; i++) insert.run(`user-${i % 7}`, "x".repeat(300));
  return db;
}

describe("storageTable", () => {
  it("sums a table's pages and its indexes' pages apart, as dbstat counts them, and divides by its rows", () => {
    const db = database();
    const pages = (name: string) => (db.prepare("SELECT sum(pgsize) AS n FROM dbstat WHERE name = ?").get(name) as { n: number }).n;
    const rows = storageTable(db);
    const calls = rows.find((r) => r.table === "calls")!;
    expect(calls.rows).toBe(2000);
    expect(calls.tableBytes).toBe(pages("calls"));
    expect(calls.indexBytes).toBe(pages("calls_user_idx"));
    expect(calls.perRow).toBeCloseTo((pages("calls") + pages("calls_user_idx")) / 2000, 6);
    // 300 bytes of text a row cannot take less than that on disk.
    expect(calls.perRow).toBeGreaterThan(300);
  });

  it("leaves out D1's and SQLite's own tables, lists empty tables with no bytes per row, and narrows to the tables asked for", () => {
    const db = database();
    const names = storageTable(db).map((r) => r.table);
    expect(names).toContain("calls");
    expect(names).not.toContain("d1_migrations");
    expect(names.some((n) => n.startsWith("sqlite_"))).toBe(false);
    expect(storageTable(db).find((r) => r.table === "empty")).toMatchObject({ rows: 0, perRow: null });
    expect(storageTable(db, ["calls"]).map((r) => r.table)).toEqual(["calls"]);
  });
});
