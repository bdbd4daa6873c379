import { describe, expect, it } from "vitest";
import type { AlertView } from "@shared/schemas/alerts";
import { alertCallsLink } from "./calls-link";

const alert = (over: Partial<AlertView> = {}): AlertView => ({
  id: 1,
  ruleId: 1,
  ruleName: "Errors at the front desk",
  metric: "error_calls",
  scopeKind: "agent",
  scopeId: "7",
  scopeLabel: "Front desk",
  severity: "critical",
  comparison: "gte",
  threshold: 3,
  windowMinutes: 15,
  value: 3,
  windowStart: "2026-11-20T19:00:00.000Z",
  windowEnd: "2026-11-20T19:15:23.456Z",
  firedAt: "2026-11-20T19:15:23.456Z",
  resolvedAt: null,
  resolvedValue: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
  scopeAssistantId: "asst-front",
  ...over,
});

describe("alertCallsLink", () => {
  it("sends an agent's error alert to that agent's error calls from the window's start through the firing", () => {
    expect(alertCallsLink(alert())).toEqual({
      to: "/call-logs",
      search: { agent: "asst-front", outcome: "error", from: "2026-11-20T19:00:00.000Z", to: "2026-11-20T19:15:23.457Z" },
    });
  });

  it("ends a resolved alert's calls at its resolution", () => {
    const link = alertCallsLink(alert({ resolvedAt: "2026-11-20T20:02:00.000Z" }));
    expect(link).toMatchObject({ search: { from: "2026-11-20T19:00:00.000Z", to: "2026-11-20T20:02:00.001Z" } });
  });

  it("reads a number's scope as its agent's assistant, keeps 'all' unscoped, and gives no link for a scope without an assistant", () => {
    expect(alertCallsLink(alert({ scopeKind: "number", scopeId: "3", scopeAssistantId: "asst-line" }))).toMatchObject({ search: { agent: "asst-line" } });
    const all = alertCallsLink(alert({ scopeKind: "all", scopeId: "", scopeAssistantId: null }));
    expect(all).toMatchObject({ to: "/call-logs" });
    expect(all && "search" in all ? all.search.agent : "none").toBeUndefined();
    expect(alertCallsLink(alert({ scopeAssistantId: null }))).toBeNull();
  });

  it("filters by outcome only for the error and forwarded metrics", () => {
    const outcome = (metric: AlertView["metric"]) => {
      const link = alertCallsLink(alert({ metric }));
      return link && "search" in link ? link.search.outcome : "no link";
    };
    expect(outcome("error_calls")).toBe("error");
    expect(outcome("forwarded_share")).toBe("forwarded");
    expect(outcome("call_count")).toBeUndefined();
    expect(outcome("total_cost")).toBeUndefined();
  });

  it("shows the New York month's calls behind the minutes used, the dashboard for a store metric, and nothing for a silent line", () => {
    const minutes = alertCallsLink(alert({ metric: "minutes_used", scopeKind: "all", scopeAssistantId: null, windowMinutes: 0 }));
    // November 2026 starts at midnight New York time, still daylight time that night: 04:00 UTC.
    expect(minutes).toEqual({ to: "/call-logs", search: { from: "2026-11-01T04:00:00.000Z", to: "2026-11-20T19:15:23.457Z" } });
    for (const metric of ["aircall_unanswered_share", "appointment_no_show_share", "leads_drop"] as const) {
      expect(alertCallsLink(alert({ metric, scopeKind: "store", scopeId: "NAPLES", scopeAssistantId: null, windowMinutes: 0 }))).toEqual({ to: "/dashboard" });
    }
    expect(alertCallsLink(alert({ metric: "silent_line", scopeKind: "number", windowMinutes: 0 }))).toBeNull();
  });
});
