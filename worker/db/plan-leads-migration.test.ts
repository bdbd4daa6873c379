// The migration that keeps visitors' plan leads apart from the stores' leads: the leads without a
// store (the checkout form's, before) move to plan_leads, and the days whose lead roll-ups counted
// them are marked for the roll-up job, so the lead counts read those days live until it recomputes them.
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
