// GET /api/export-report: the caller's calls of the range and filters as a streamed CSV download.
import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { TEXT_MARK } from "../lib/csv";
import { insertAgent, insertCallLogs } from "../test/factories";
import { call, signUpAndSignIn } from "../test/helpers";
import { readAsSpreadsheet } from "../test/spreadsheet";

const report = (token: string | undefined, query: Record<string, string>) =>
  call(`/api/export-report?${new URLSearchParams({ dateFilterType: "range", ...query })}`, { token });

/** The CSV's rows (header first), the final empty line dropped (the text decoder already took the BOM). */
function rowsOf(text: string): string[][] {
  return Papa.parse<string[]>(text, { newline: "\r\n", delimiter: "," }).data.slice(0, -1);
}

describe("GET /api/export-report", () => {
  it("downloads the caller's calls of the New York range, oldest first, as call-report-{start}-to-{end}.csv", async () => {
    const me = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const agent = await insertAgent(me.userId, { name: "Miami Reminder Caller", vapiAssistantId: `asst-${crypto.randomUUID()}` }, { store: "MIAMI", type: "outbound" });
    const base = { direction: "outbound" as const, assistantId: agent.vapiAssistantId, agentId: agent.id, store: "MIAMI" };
    // 2026-03-08 is the spring-forward day: New York midnight is 05:00Z before it and 04:00Z after it.
    await insertCallLogs(me.userId, 1, { ...base, callId: "before", startTime: "2026-03-07T04:59:59.000Z" });
    await insertCallLogs(me.userId, 1, {
      ...base,
      callId: "first",
      startTime: "2026-03-07T05:00:00.000Z",
      phoneNumber: "+13055550123",
      status: "ended",
      endedReason: "voicemail",
      duration: 47,
      summary: "=HYPERLINK(\"x\")",
      cost: 0.0712,
    });
    await insertCallLogs(me.userId, 1, { ...base, callId: "last", startTime: "2026-03-09T03:59:59.000Z", endedReason: "customer-ended-call", summary: "Booked, \"Tuesday\"" });
    await insertCallLogs(me.userId, 1, { ...base, callId: "after", startTime: "2026-03-09T04:00:00.000Z" });
    await insertCallLogs(me.userId, 1, { ...base, callId: "inbound", direction: "inbound", startTime: "2026-03-08T15:00:00.000Z" });
    await insertCallLogs(other.userId, 1, { ...base, callId: "not-mine", startTime: "2026-03-08T15:00:00.000Z" });

    const res = await report(me.accessToken, { startDate: "2026-03-07", endDate: "2026-03-08", callType: "Outbound" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="call-report-2026-03-07-to-2026-03-08.csv"');
    const [header, ...rows] = rowsOf(res.body.text);
    expect(header).toEqual([
      "Call ID", "Start (America/New_York)", "Direction", "Agent", "Store", "Phone number", "Status",
      "Ended reason", "Outcome", "Duration (s)", "Cost (USD)", "Summary",
    ]);
    expect(rows.map((r) => r[0])).toEqual(["first", "last"]);
    // Every cell of one row, in the header's order (the page is read as arrays: each index matters).
    expect(rows[0]).toEqual([
      "first", "2026-03-07 00:00:00", "outbound", "Miami Reminder Caller", "MIAMI", `${TEXT_MARK}+13055550123`, "ended",
      "voicemail", "voicemail", "47", "0.0712", `${TEXT_MARK}=HYPERLINK("x")`,
    ]);
    expect(rows[0].slice(1, 5)).toEqual(["2026-03-07 00:00:00", "outbound", "Miami Reminder Caller", "MIAMI"]);
    expect(rows[0][8]).toBe("voicemail");
    expect(rows[0][10]).toBe("0.0712");
    expect(rows[0][11]).toBe(`${TEXT_MARK}=HYPERLINK("x")`);
    expect(rows[1][1]).toBe("2026-03-08 23:59:59");
    expect(rows[1][8]).toBe("connected");
    expect(rows[1][11]).toBe('Booked, "Tuesday"');
  });

  it("filters by agent and call type", async () => {
    const me = await signUpAndSignIn();
    const day = { startTime: "2026-04-02T15:00:00.000Z" };
    await insertCallLogs(me.userId, 1, { ...day, callId: "a-out", assistantId: "asst-a", direction: "outbound" });
    await insertCallLogs(me.userId, 1, { ...day, callId: "a-in", assistantId: "asst-a", direction: "inbound" });
    await insertCallLogs(me.userId, 1, { ...day, callId: "b-out", assistantId: "asst-b", direction: "outbound" });
    await insertCallLogs(me.userId, 1, { ...day, callId: "web", assistantId: "asst-a", direction: "web" });
    const ids = async (query: Record<string, string>) =>
      rowsOf((await report(me.accessToken, { startDate: "2026-04-02", endDate: "2026-04-02", ...query })).body.text)
        .slice(1)
        .map((r) => r[0])
        .sort();
    expect(await ids({ callType: "Both" })).toEqual(["a-in", "a-out", "b-out"]);
    expect(await ids({ callType: "Both", agent: "asst-a" })).toEqual(["a-in", "a-out"]);
    expect(await ids({ callType: "Inbound", agent: "" })).toEqual(["a-in"]);
  });

  it("names each call's agent: the caller's own, one held by another account now, and none for a call without one", async () => {
    const me = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const mine = await insertAgent(me.userId, { name: "Tulsa Front Desk" }, { store: "TULSA", type: "inbound" });
    const moved = await insertAgent(other.userId, { name: "Moved Agent" }, { store: "OKC", type: "outbound" });
    const day = { startTime: "2026-06-03T15:00:00.000Z", direction: "outbound" as const };
    await insertCallLogs(me.userId, 1, { ...day, callId: "c-mine", agentId: mine.id });
    await insertCallLogs(me.userId, 1, { ...day, callId: "c-moved", agentId: moved.id });
    await insertCallLogs(me.userId, 1, { ...day, callId: "c-none", agentId: null });
    await insertCallLogs(me.userId, 1, { ...day, callId: "c-gone", agentId: 987_654_321 });
    const res = await report(me.accessToken, { startDate: "2026-06-03", endDate: "2026-06-03", callType: "Outbound" });
    const agentOf = Object.fromEntries(rowsOf(res.body.text).slice(1).map((r) => [r[0], r[3]]));
    expect(agentOf).toEqual({ "c-mine": "Tulsa Front Desk", "c-moved": "Moved Agent", "c-none": "", "c-gone": "" });
  });

  it("streams past one page without losing or repeating a row", async () => {
    const me = await signUpAndSignIn();
    const rows = await insertCallLogs(me.userId, 2_345, { direction: "outbound" }, { day: "2026-05-04" });
    const res = await report(me.accessToken, { startDate: "2026-05-04", endDate: "2026-05-04", callType: "Outbound" });
    const got = rowsOf(res.body.text).slice(1).map((r) => r[0]);
    expect(got).toHaveLength(2_345);
    expect(new Set(got)).toEqual(new Set(rows.map((r) => r.callId)));
  });

  it("starts with a UTF-8 byte-order mark so spreadsheet programs read accents", async () => {
    const me = await signUpAndSignIn();
    const res = await app.request(
      "http://localhost/api/export-report?startDate=2026-06-01&endDate=2026-06-01&callType=Both",
      { headers: { authorization: `Bearer ${me.accessToken}` } },
      env,
    );
    expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 4)]).toEqual([0xef, 0xbb, 0xbf, "C".charCodeAt(0)]);
  });

  it("opens in a spreadsheet with each phone number as its text, without an apostrophe, and no cell a formula", async () => {
    const me = await signUpAndSignIn();
    const base = { direction: "inbound" as const, startTime: "2026-06-02T15:00:00.000Z" };
    const summaries = ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "=HYPERLINK(\"http://x\",\"y\")"];
    for (const [i, summary] of summaries.entries()) {
      await insertCallLogs(me.userId, 1, { ...base, callId: `sheet-${i}`, phoneNumber: `+1305555012${i}`, summary, endedReason: "=cmd", status: "-" });
    }
    const res = await app.request(
      "http://localhost/api/export-report?dateFilterType=range&startDate=2026-06-02&endDate=2026-06-02&callType=Both",
      { headers: { authorization: `Bearer ${me.accessToken}` } },
      env,
    );
    // The bytes as a program opening the file gets them, byte-order mark included.
    const [header, ...rows] = readAsSpreadsheet(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await res.arrayBuffer()));
    const column = (name: string) => header.findIndex((c) => c.shown === name);
    expect(rows).toHaveLength(summaries.length);
    expect(rows.map((r) => r[column("Phone number")])).toEqual(summaries.map((_, i) => expect.objectContaining({ type: "s", formula: null, shown: `+1305555012${i}` })));
    expect(rows.map((r) => r[column("Summary")].shown)).toEqual(summaries);
    expect(rows.flat().filter((c) => c.formula !== null)).toEqual([]);
  });

  it("needs a signed-in user", async () => {
    expect((await report(undefined, { startDate: "2026-05-04", endDate: "2026-05-04", callType: "Both" })).status).toBe(401);
  });

  it.each([
    [{ startDate: "2026-05-04", endDate: "2026-05-04" }, "callType"],
    [{ startDate: "2026-05-05", endDate: "2026-05-04", callType: "Both" }, "endDate"],
    [{ startDate: "2026-5-4", endDate: "2026-05-04", callType: "Both" }, "startDate"],
  ])("answers bad input with a 400 naming the parameter (%#)", async (query, field) => {
    const me = await signUpAndSignIn();
    const res = await report(me.accessToken, query);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});
