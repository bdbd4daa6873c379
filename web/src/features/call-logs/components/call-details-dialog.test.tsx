import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { CallDetailsDialog } from "./call-details-dialog";

const row: CallLogView = {
  id: 4,
  user_id: "u1",
  call_id: "call_42",
  phone_number: "+13055550123",
  start_time: "2026-03-10T14:05:09.000Z",
  duration: 95,
  status: "completed",
  summary: "The caller confirmed Tuesday's appointment and asked about parking near the store entrance.",
  ended_reason: "customer-ended-call",
  direction: "inbound",
  agent_id: 1,
  recording_url: "/api/vapi/sim-recordings/sim_call_0b8f3c1e-7a41-4c55-9d0e-2f1e8a1d9c11.wav",
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("CallDetailsDialog", () => {
  it("shows the Summary and Transcript tabs, the whole summary and the recording player", () => {
    vi.stubGlobal("fetch", vi.fn());
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CallDetailsDialog log={row} onClose={vi.fn()} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole("dialog", { name: CALL_LOG_TEXT.detailsTitle })).toBeTruthy();
    expect(screen.getByRole("tab", { name: CALL_LOG_TEXT.summary }).getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tab", { name: CALL_LOG_TEXT.transcript })).toBeTruthy();
    expect(screen.getByText(row.summary!)).toBeTruthy();
    const audio = document.querySelector("audio");
    expect(audio?.getAttribute("src")).toBe(row.recording_url);
    expect(audio?.hasAttribute("controls")).toBe(true);
  });

  it("has no player when the call has no recording", () => {
    vi.stubGlobal("fetch", vi.fn());
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CallDetailsDialog log={{ ...row, recording_url: null }} onClose={vi.fn()} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole("tab", { name: CALL_LOG_TEXT.transcript })).toBeTruthy();
    expect(document.querySelector("audio")).toBeNull();
  });
});
