import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALERT_METRICS, formatAlertValue } from "@shared/alerts";
import { ALERT_TEXT } from "@shared/messages";
import type { AlertRuleView, AlertRulesResponse } from "@shared/schemas/alerts";
import { Toaster } from "@web/components/ui/toaster";
import { setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { resetToasts } from "@web/lib/toast-store";
import { RuleForm } from "./rule-form";

const OPTIONS: AlertRulesResponse = {
  rules: [],
  limit: 50,
  plan: { rules: 50, extraEmails: 5 },
  recipients: [
    { email: "new@example.com", status: "pending" },
    { email: "ops@example.com", status: "confirmed" },
    { email: "gone@example.com", status: "unsubscribed" },
  ],
  metrics: ["call_count", "error_calls", "forwarded_share", "total_cost", "minutes_used", "silent_line"],
  scopes: [
    { kind: "all", id: "", label: "All" },
    { kind: "agent", id: "7", label: "Front desk" },
  ],
};

/** The API as the form sees it: Test answers `fired`; a save answers `saveStatus` with its body. */
function stubApi({ fired = 2, saveStatus = 201, saveBody = {} as Record<string, unknown>, tested = {} as Record<string, unknown> } = {}) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === "/api/alerts/test") return Response.json({ replayed: true, grain: "minute", fired, firings: [], current: 0, from: "", to: "", ...tested });
    if (url === "/api/alerts/rules" && init?.method === "POST") return Response.json(saveBody, { status: saveStatus });
    if (url === "/api/alerts/recipients/resend") return Response.json({ recipient: { email: JSON.parse(String(init?.body)).email, status: "pending" } });
    return new Response("not found", { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  act(() => resetToasts());
});

const renderForm = (onDone = vi.fn(), rule: AlertRuleView | null = null, options: AlertRulesResponse = OPTIONS) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RuleForm rule={rule} options={options} onDone={onDone} />
      <Toaster />
    </QueryClientProvider>,
  );

describe("RuleForm", () => {
  it("shows the chosen metric's exact definition and only the windows it takes", () => {
    stubApi();
    renderForm();
    expect(screen.getByTestId("metric-definition").textContent).toBe(ALERT_METRICS.error_calls.definition);
    fireEvent.change(screen.getByLabelText("Metric"), { target: { value: "minutes_used" } });
    expect(screen.getByTestId("metric-definition").textContent).toBe(ALERT_METRICS.minutes_used.definition);
    const windows = [...(screen.getByLabelText("Window") as HTMLSelectElement).options].map((o) => o.value);
    expect(windows).toEqual(["0"]);
  });

  it("Test posts the rule and says how often it would have fired over the last 7 days", async () => {
    const fetchMock = stubApi({ fired: 2 });
    setAccessToken("tok");
    renderForm();
    expect((screen.getByLabelText("Metric") as HTMLSelectElement).value).toBe("error_calls");
    fireEvent.change(screen.getByLabelText("Scope"), { target: { value: "agent" } });
    fireEvent.change(await screen.findByLabelText("Agent"), { target: { value: "7" } });
    fireEvent.click(screen.getByRole("button", { name: ALERT_TEXT.test }));
    expect((await screen.findByTestId("alert-test-result")).textContent).toBe(`${ALERT_TEXT.testResult(2, 7)} ${ALERT_TEXT.testGrain.minute}`);
    const body = JSON.parse(String(fetchMock.mock.calls.find(([url]) => url === "/api/alerts/test")![1]!.body));
    expect(body).toMatchObject({ metric: "error_calls", scopeKind: "agent", scopeId: "7", threshold: 3, windowMinutes: 15 });
  });

  it("Test says when a metric is not replayed and gives its value now", async () => {
    stubApi({ tested: { replayed: false, grain: "now", fired: 0, current: 42 } });
    setAccessToken("tok");
    renderForm();
    fireEvent.change(screen.getByLabelText("Metric"), { target: { value: "minutes_used" } });
    fireEvent.click(screen.getByRole("button", { name: ALERT_TEXT.test }));
    expect((await screen.findByTestId("alert-test-result")).textContent).toBe(ALERT_TEXT.testNotReplayed(formatAlertValue("minutes_used", 42)));
  });

  it("shows the server's refusal on the field it names", async () => {
    stubApi({ saveStatus: 400, saveBody: { error: "threshold: threshold must be between 1 and 100000 for error_calls", code: "validation_error", field: "threshold" } });
    setAccessToken("tok");
    const onDone = vi.fn();
    renderForm(onDone);
    fireEvent.change(screen.getByLabelText("Threshold (calls)"), { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: ALERT_TEXT.save }));
    await screen.findByText("threshold: threshold must be between 1 and 100000 for error_calls");
    await waitFor(() => expect(screen.getByLabelText("Threshold (calls)").getAttribute("aria-invalid")).toBe("true"));
    expect(onDone).not.toHaveBeenCalled();
  });

  it("shows each extra address's state, and Resend confirmation only while it waits (an unsubscribed address is not asked again)", async () => {
    const fetchMock = stubApi();
    setAccessToken("tok");
    const rule: AlertRuleView = {
      id: 1,
      name: "Errors",
      metric: "error_calls",
      scopeKind: "all",
      scopeId: "",
      scopeLabel: "All",
      comparison: "gte",
      threshold: 3,
      windowMinutes: 15,
      cooldownMinutes: 30,
      severity: "warning",
      emailAccount: true,
      extraEmails: ["new@example.com", "ops@example.com", "gone@example.com"],
      webhook: false,
      bell: true,
      status: "ok",
      since: "2026-01-01T00:00:00.000Z",
      lastValue: null,
      evaluatedAt: null,
    };
    renderForm(vi.fn(), rule);
    const rows = () => [...screen.getByTestId("alert-recipients").querySelectorAll("li")].map((li) => li.textContent);
    expect(rows()).toEqual([
      `new@example.com${ALERT_TEXT.recipientStates.pending}${ALERT_TEXT.resendConfirmation}`,
      `ops@example.com${ALERT_TEXT.recipientStates.confirmed}`,
      `gone@example.com${ALERT_TEXT.recipientStates.unsubscribed}`,
    ]);
    // An address typed now has no state yet: its confirmation goes out with the save.
    fireEvent.change(screen.getByLabelText("Extra email addresses"), { target: { value: "new@example.com, Later@Example.com" } });
    expect(rows()).toEqual([`new@example.com${ALERT_TEXT.recipientStates.pending}${ALERT_TEXT.resendConfirmation}`, `later@example.com${ALERT_TEXT.recipientNew}`]);
    fireEvent.click(screen.getByRole("button", { name: ALERT_TEXT.resendConfirmation }));
    expect((await screen.findByRole("status")).textContent).toBe(ALERT_TEXT.confirmationSent);
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/alerts/recipients/resend")!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ email: "new@example.com" });
  });

  it("without extra addresses in the plan, says the mail goes to the account's own address only", () => {
    stubApi();
    renderForm(vi.fn(), null, { ...OPTIONS, limit: 10, plan: { rules: 10, extraEmails: 0 }, recipients: [] });
    expect(screen.queryByLabelText("Extra email addresses")).toBeNull();
    expect(screen.getByTestId("alert-plan-mail").textContent).toBe(ALERT_TEXT.planAllows(10, 0));
  });
});
