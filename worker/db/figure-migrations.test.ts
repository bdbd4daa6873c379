// Two data migrations of the dashboard's figures. Plan leads apart: the leads without a store (the
// checkout form's, before) move to plan_leads, and the days whose lead roll-ups counted them are
// marked for the roll-up job, so the lead counts read those days live until it recomputes them. Store
// report totals: a stored one-store report's day total is named after its store, not ALL.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { nyDayOf } from "@shared/ny-time";
import { runRollups } from "../jobs/rollups";
import { leadSummary } from "../services/counts/leads";
import { DbMeter } from "../services/counts/meter";
import { insertLeads } from "../test/factories";
import { db } from "../test/helpers";
import { leads, planLeads, rollupDirtyDays } from "./schema";

const migration = env.TEST_MIGRATIONS.find((m) => m.name.endsWith("_plan_leads_apart.sql"))!;
/** Its statements that move rows (the tables it creates exist already: every migration has run). */
const dataStatements = migration.queries.filter((q) => !/^\s*(--[^\n]*\n\s*)*CREATE\b/i.test(q));

describe("migration: plan leads apart", () => {
  it("moves the leads without a store to plan_leads and marks the days their roll-ups counted them", async () => {
    const day = "2026-05-12";
    const submittedAt = "2026-05-12T15:00:00.000Z";
    const stores = await insertLeads(3, {}, { day, store: "MIAMI" });
    // A checkout lead as the lead form wrote it before: no store, in the leads table.
    await db().insert(leads).values({
      externalId: "web-old-form",
      store: null,
      email: "visitor@example.com",
      phone: "3055550142",
      firstName: "Vi",
      lastName: "Sitor",
      company: "Acme",
      leadSource: "trial",
      interestLevel: 4,
      metadata: { is_trial: true },
      submittedAt,
    });
    await runRollups({ db: db(), now: new Date("2026-05-20T12:00:00Z") }, { backfillFrom: day });
    // The roll-up row the job wrote for it before ("" for no store).
    await env.DB.prepare("INSERT INTO lead_daily (day, store, submissions) VALUES (?, '', 1)").bind(day).run();
    const range = { dateFilterType: "range" as const, startDate: day, endDate: day };
    expect(dataStatements.length).toBeGreaterThan(0);

    await env.DB.batch(dataStatements.map((q) => env.DB.prepare(q)));

    expect(await db().select({ externalId: leads.externalId }).from(leads).where(eq(leads.email, "visitor@example.com"))).toEqual([]);
    const [moved] = await db().select().from(planLeads).where(eq(planLeads.email, "visitor@example.com"));
    expect(moved).toMatchObject({ phone: "3055550142", firstName: "Vi", lastName: "Sitor", company: "Acme", leadSource: "trial", submittedAt });
    expect(await db().select({ day: rollupDirtyDays.day }).from(rollupDirtyDays).where(eq(rollupDirtyDays.source, "leads"))).toContainEqual({ day: nyDayOf(submittedAt) });
    // The day is counted live until the job runs again, then from its roll-up: the stores' leads only.
    expect((await leadSummary(new DbMeter(env.DB), range)).totalSubmissions).toBe(stores.length);
    await runRollups({ db: db(), now: new Date("2026-05-21T12:00:00Z") });
    expect((await leadSummary(new DbMeter(env.DB), range)).totalSubmissions).toBe(stores.length);
  });
});

describe("migration: store report totals", () => {
  it("renames a stored one-store report's ALL row to the store's day total, and leaves the all-stores report's ALL", async () => {
    const m = env.TEST_MIGRATIONS.find((x) => x.name.endsWith("_store_report_totals.sql"))!;
    const day = "2025-02-03";
    const one = `\uFEFFDate,Store,Total\r\n${day},NAPLES,4\r\n${day},ALL,4\r\n`;
    const all = `\uFEFFDate,Store,Total\r\n${day},NAPLES,4\r\n${day},ALL,9\r\n`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, 'NAPLES', ?, 2)").bind(day, one),
      env.DB.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, NULL, ?, 2)").bind(day, all),
    ]);
    await env.DB.batch(m.queries.map((q) => env.DB.prepare(q)));
    const { results } = await env.DB.prepare("SELECT store, csv FROM daily_reports WHERE day = ? ORDER BY store").bind(day).all<{ store: string | null; csv: string }>();
    expect(results).toEqual([
      { store: null, csv: all },
      { store: "NAPLES", csv: `\uFEFFDate,Store,Total\r\n${day},NAPLES,4\r\n${day},NAPLES total,4\r\n` },
    ]);
  });
});
