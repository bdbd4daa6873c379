// bench/storage.mjs's storageTable (every table's pages with all of its indexes', per row, from dbstat)
// and moveTextToR2 (a call's transcript leaves the row for an R2 object, decision 077).
import { describe, expect, it } from "vitest";

// Taken at run time: this project's test bundler cannot bundle node:sqlite (Node 22's SQLite).
const { DatabaseSync } = process.getBuiltinModule("node:sqlite");

type Row = { table: string; rows: number; tableBytes: number; indexBytes: number; perRow: number | null };

// The bench's scripts are plain .mjs outside the typed projects: imported by a path built at run time.
const { storageTable, moveTextToR2, D1_BYTES_PER_CALL_TARGET } = (await import(/* @vite-ignore */ `../bench/${"storage.mjs"}`)) as {
  storageTable: (db: unknown, tables?: string[]) => Row[];
  moveTextToR2: (row: { transcript: string | null }) => number;
  D1_BYTES_PER_CALL_TARGET: number;
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

describe("moveTextToR2", () => {
  it("empties the row's transcript and counts the object's body as the worker writes it (JSON, UTF-8 bytes)", () => {
    const row = { transcript: "AI: Olá.\nHuman: \"Hi\"" };
    const body = JSON.stringify({ transcript: row.transcript });
    expect(moveTextToR2(row)).toBe(new TextEncoder().encode(body).length);
    expect(body.length).toBeLessThan(new TextEncoder().encode(body).length);
    expect(row.transcript).toBeNull();
    // A row without a transcript has no object.
    expect(moveTextToR2(row)).toBe(0);
  });

  it("moving a realistic-sized text out leaves a row under the D1 target, where the text in it was over", () => {
    const perRow = (textInR2: boolean) => {
      const db = new DatabaseSync(":memory:");
      db.exec(`PRAGMA page_size = 4096; CREATE TABLE calls (id INTEGER PRIMARY KEY, summary TEXT, transcript TEXT);`);
      const insert = db.prepare("INSERT INTO calls (summary, transcript) VALUES (?, ?)");
      for (let i = 0; i < 1000; i++) {
        const row = { transcript: "x".repeat(1800) };
        if (textInR2) moveTextToR2(row);
        insert.run("s".repeat(175), row.transcript);
      }
      return storageTable(db, ["calls"])[0].perRow!;
    };
    expect(perRow(true)).toBeLessThan(D1_BYTES_PER_CALL_TARGET);
    expect(perRow(false)).toBeGreaterThan(D1_BYTES_PER_CALL_TARGET);
  });
});
