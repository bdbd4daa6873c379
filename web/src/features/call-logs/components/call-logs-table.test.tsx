import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { CALL_SUMMARY_MAX } from "@shared/constants";
import { CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { CallLogsTable } from "./call-logs-table";

const longSummary = "The caller booked an eye exam for Tuesday at 3 PM and asked about insurance coverage.";

const log: CallLogView = {
  id: 1,
  user_id: "u1",
  call_id: "0b8f3c1e-7a41-4c55-9d0e-2f1e8a1d9c11",
  phone_number: "+13055550123",
  // 14:05 UTC on 10 March 2026 is 10:05 in New York (EDT).
  start_time: "2026-03-10T14:05:09.000Z",
  duration: 3725,
  status: "ended",
  summary: longSummary,
  ended_reason: "customer-ended-call",
  direction: "inbound",
  agent_id: 3,
  recording_url: null,
};

describe("CallLogsTable", () => {
  it("shows the spec's columns with the row formatted", () => {
    render(<CallLogsTable logs={[log]} onView={vi.fn()} />);
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual([
      CALL_LOG_TEXT.dateTime,
      CALL_LOG_TEXT.phoneNumber,
      CALL_LOG_TEXT.duration,
      CALL_LOG_TEXT.status,
      CALL_LOG_TEXT.summary,
      CALL_LOG_TEXT.actions,
    ]);
    const cells = within(screen.getAllByRole("row")[1]).getAllByRole("cell").map((c) => c.textContent);
    expect(cells.slice(0, 4)).toEqual(["2026-03-10 10:05:09", "+1(305) 555-0123", "1h 2m 5s", "ended"]);
  });

  it("cuts the summary to 50 characters plus an ellipsis, keeping the whole text in the tooltip", () => {
    expect(CALL_SUMMARY_MAX).toBe(50);
    render(<CallLogsTable logs={[log, { ...log, id: 2, summary: "Short summary." }, { ...log, id: 3, summary: null }]} onView={vi.fn()} />);
    const cut = screen.getByText(`${longSummary.slice(0, 50)}...`);
    expect(cut.getAttribute("title")).toBe(longSummary);
    expect(screen.getByText("Short summary.")).toBeTruthy();
  });

  it("opens the details of the row whose 'View Details' is pressed", () => {
    const onView = vi.fn();
    const second = { ...log, id: 2, call_id: "call_abc" };
    render(<CallLogsTable logs={[log, second]} onView={onView} />);
    fireEvent.click(screen.getAllByRole("button", { name: CALL_LOG_TEXT.viewDetails })[1]);
    expect(onView).toHaveBeenCalledWith(second);
  });
});
