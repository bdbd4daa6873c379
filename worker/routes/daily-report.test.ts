// GET /api/daily-report (docs/product/api.md#dashboard-counts): one row per New York day × store plus ALL, every figure the
// same as the count endpoints answer for that day and store; the stored nightly reports' endpoints
// are tested with their job (worker/jobs/daily-report.test.ts).
import { APPOINTMENT_CATEGORY_KEYS, APPOINTMENT_STATUSES, STORE_NUMBER_NAMES, STORES } from "@shared/constants";
import { DAILY_REPORT_COLUMNS } from "@shared/daily-report";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { insertAircallCalls, insertAppointments, insertLeads } from "../test/factories";
import { call, signUpAndSignIn } from "../test/helpers";

const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();
/** The CSV's rows (header first), the final empty line dropped (the text decoder already took the BOM). */
const rowsOf = (text: string) => Papa.parse<string[]>(text, { newline: "\r\n", delimiter: "," }).data.slice(0, -1);

const DAY = "2026-07-14";
const NEXT = "2026-07-15";

async function seed() {
  const w = { fromMs: Date.parse(`${DAY}T00:00:00Z`), toMs: Date.parse(`${NEXT}T23:59:00Z`) };
  await insertAppointments(120, {}, { window: w, nowMs: Date.parse(`${NEXT}T12:00:00Z`) });
  await insertAircallCalls(80, {}, { window: w });
  await insertLeads(40, {}, { window: w });
}

/** What the count endpoints answer for one day and store, keyed like the report's columns. */
async function countsOf(token: string, day: string, store?: (typeof STORES)[number]) {
  const range = { startDate: day, endDate: day };
  const get = async (path: string, q: Record<string, string | undefined>) => {
    const params = Object.fromEntries(Object.entries({ ...range, ...q }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    return (await call(`/api/${path}?${qs(params)}`, { token })).body;
  };
  const line = store ? STORE_NUMBER_NAMES[store] : undefined;
  const [cat, status, leads, inbound, outbound, answered, transfers] = await Promise.all([
    get("appointment-category-count", { store }),
    get("appointment-status-count", { store }),
    get("lead-counts/summary", { store }),
    get("aircall/call-count", { numberName: line, direction: "inbound" }),
    get("aircall/call-count", { numberName: line, direction: "outbound" }),
    get("aircall/outbound-answered-count", { numberName: line }),
    get("aircall/store-transfer-solutions-count", { numberName: line }),
  ]);
  return {
    ...cat.counts,
    ...status.counts,
    "Lead submissions": store ? leads.byStore[store] : leads.totalSubmissions,
    "Aircall inbound calls": inbound.count,
    "Aircall outbound calls": outbound.count,
    "Aircall outbound answered": answered.count,
    "Aircall store transfers": transfers.count,
  } as Record<string, number>;
}

describe("GET /api/daily-report", { timeout: 60_000 }, () => {
  it("has a row per day × store and an ALL row, each figure what the count endpoints answer", async () => {
    await seed();
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true, call_app: true } });
    const res = await call(`/api/daily-report?${qs({ startDate: DAY, endDate: NEXT })}`, { token: staff.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="daily-report-${DAY}-to-${NEXT}.csv"`);
    const [header, ...rows] = rowsOf(res.body.text);
    expect(header).toEqual(["Date", "Store", ...DAILY_REPORT_COLUMNS.map((c) => c.key)]);
    // The three groups, in the constant's order: non-virtual categories and statuses, virtual, leads & Aircall.
    expect(DAILY_REPORT_COLUMNS.filter((c) => c.group === "Virtual Interactions").map((c) => c.key)).toEqual(
      APPOINTMENT_CATEGORY_KEYS.filter((k) => k.startsWith("Virtual")),
    );
    expect(DAILY_REPORT_COLUMNS.slice(0, 14).map((c) => c.key)).toEqual([
      ...APPOINTMENT_CATEGORY_KEYS.filter((k) => !k.startsWith("Virtual")),
      ...APPOINTMENT_STATUSES,
    ]);
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual([DAY, NEXT].flatMap((d) => [...STORES, "ALL"].map((s) => `${d} ${s}`)));

    const figures = (r: string[]) => Object.fromEntries(DAILY_REPORT_COLUMNS.map((c, i) => [c.key, Number(r[i + 2])]));
    let nonZero = 0;
    for (const day of [DAY, NEXT]) {
      const dayRows = rows.filter((r) => r[0] === day);
      for (const store of STORES) {
        const got = figures(dayRows.find((r) => r[1] === store)!);
        expect(got, `${day} ${store}`).toEqual(await countsOf(staff.accessToken, day, store));
        nonZero += Object.values(got).filter((n) => n > 0).length;
      }
      // ALL is the day without a store filter, as the dashboard counts it (leads without a store included).
      const all = figures(dayRows.find((r) => r[1] === "ALL")!);
      expect(all, `${day} ALL`).toEqual(await countsOf(staff.accessToken, day));
    }
    // The seed reaches every group, so the comparison above is not of zeros only.
    expect(nonZero).toBeGreaterThan(50);
    const allRows = rows.filter((r) => r[1] === "ALL").map(figures);
    for (const key of ["Total", "Virtual Scheduled Today", "Lead submissions", "Aircall inbound calls", "Aircall outbound calls"]) {
      expect(allRows.reduce((n, r) => n + r[key], 0), key).toBeGreaterThan(0);
    }
  });

  it("narrows to one store, and names the file after the date or the range and the store", async () => {
    await seed();
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true, call_app: true } });
    const one = await call(`/api/daily-report?${qs({ startDate: DAY, endDate: NEXT, store: "naples" })}`, { token: staff.accessToken });
    expect(one.status).toBe(200);
    expect(one.headers.get("content-disposition")).toBe(`attachment; filename="daily-report-${DAY}-to-${NEXT}-NAPLES.csv"`);
    const rows = rowsOf(one.body.text).slice(1);
    // The day's total row is named after the store: it is NAPLES's, not all stores'.
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual([`${DAY} NAPLES`, `${DAY} NAPLES total`, `${NEXT} NAPLES`, `${NEXT} NAPLES total`]);
    expect(rows[0].slice(2)).toEqual(rows[1].slice(2));
    expect(Object.fromEntries(DAILY_REPORT_COLUMNS.map((c, i) => [c.key, Number(rows[0][i + 2])]))).toEqual(
      await countsOf(staff.accessToken, DAY, "NAPLES"),
    );

    const single = await call(`/api/daily-report?${qs({ date: DAY })}`, { token: staff.accessToken });
    expect(single.status).toBe(200);
    expect(single.headers.get("content-disposition")).toBe(`attachment; filename="daily-report-${DAY}.csv"`);
    const singleRows = rowsOf(single.body.text).slice(1);
    expect(singleRows).toHaveLength(10);
    // The same day in either query form is the same rows.
    const range = await call(`/api/daily-report?${qs({ startDate: DAY, endDate: DAY })}`, { token: staff.accessToken });
    expect(rowsOf(range.body.text).slice(1)).toEqual(singleRows);
  });

  it("streams a range longer than one page (8 days) whole and in day order", async () => {
    await seed();
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const start = "2026-07-06";
    const res = await call(`/api/daily-report?${qs({ startDate: start, endDate: NEXT })}`, { token: staff.accessToken });
    expect(res.status).toBe(200);
    const rows = rowsOf(res.body.text).slice(1);
    const days = Array.from({ length: 10 }, (_, i) => `2026-07-${String(6 + i).padStart(2, "0")}`);
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual(days.flatMap((d) => [...STORES, "ALL"].map((s) => `${d} ${s}`)));
    // The days of the second page are the same as asked alone.
    const alone = await call(`/api/daily-report?${qs({ date: NEXT })}`, { token: staff.accessToken });
    expect(rows.slice(90)).toEqual(rowsOf(alone.body.text).slice(1));
  });

  it("answers 400 naming the field, 401 without a session and 403 without shopwindows_info (admins pass)", async () => {
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const cases: [Record<string, string>, string][] = [
      [{}, "startDate"],
      [{ startDate: DAY }, "endDate"],
      [{ date: "2026-02-30" }, "date"],
      [{ date: DAY, startDate: DAY }, "date"],
      [{ startDate: NEXT, endDate: DAY }, "endDate"],
      [{ startDate: "2025-01-01", endDate: DAY }, "endDate"],
      [{ date: DAY, store: "ATLANTIS" }, "store"],
    ];
    for (const [q, field] of cases) {
      const res = await call(`/api/daily-report?${qs(q)}`, { token: staff.accessToken });
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const q = qs({ date: DAY });
    expect((await call(`/api/daily-report?${q}`)).status).toBe(401);
    const callCentre = await signUpAndSignIn({ appMetadata: { call_app: true } });
    const denied = await call(`/api/daily-report?${q}`, { token: callCentre.accessToken });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("forbidden");
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    expect((await call(`/api/daily-report?${q}`, { token: admin.accessToken })).status).toBe(200);
  });

  it("counts a store's Aircall calls on every spelling of its line, and takes a store's name", async () => {
    const day = "2026-07-20";
    // "Naples." is the line name in docs/product/README.md#records; the same line typed without its dot or in capitals is still Naples.
    const rows = [
      ...(await insertAircallCalls(12, {}, { day, store: "NAPLES" })),
      ...(await insertAircallCalls(9, { numberName: "Naples", store: "NAPLES" }, { day })),
      ...(await insertAircallCalls(6, { numberName: "NAPLES", store: "NAPLES" }, { day })),
    ];
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const res = await call(`/api/daily-report?${qs({ date: day, store: "Naples" })}`, { token: staff.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="daily-report-${day}-NAPLES.csv"`);
    const header = rowsOf(res.body.text)[0];
    const naples = rowsOf(res.body.text).find((r) => r[1] === "NAPLES")!;
    const figure = (key: string) => Number(naples[header.indexOf(key)]);
    expect(figure("Aircall inbound calls") + figure("Aircall outbound calls")).toBe(rows.length);
    expect(figure("Aircall inbound calls")).toBe(rows.filter((r) => r.direction === "inbound").length);
  });
});
