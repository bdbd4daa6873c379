// Usage statistics without HTTP: the month's sums come from the covering index alone.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nyMonthRange } from "@shared/ny-time";
import { db } from "../test/helpers";
import { monthlyCallsQuery } from "./usage";

describe("monthly usage query", () => {
  it("is answered from call_logs_user_time_idx alone, without reading call rows", async () => {
    const { start, end } = nyMonthRange(new Date("2026-03-20T12:00:00Z"));
    const { sql: text, params } = monthlyCallsQuery(db(), "some-user", start, end).toSQL();
    const plan = await env.DB.prepare(`explain query plan ${text}`).bind(...params).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join("\n");
    expect(details).toContain("USING COVERING INDEX call_logs_user_time_idx");
  });
});
