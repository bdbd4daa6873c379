import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TRANSCRIPT_PANE_HEIGHT_PX } from "@shared/constants";
import { CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { CallTranscript } from "./call-details-dialog";
import { TranscriptView, parseTranscript } from "./transcript-view";

const turnsShown = () =>
  screen.getAllByRole("listitem").map((li) => [li.getAttribute("data-speaker"), li.lastElementChild?.textContent]);

describe("TranscriptView", () => {
  it("splits text on 'AI:' and 'Human:' prefixes into turns", () => {
    render(<TranscriptView transcript={"AI: Thank you for calling. How can I help?\nHuman: What time do you open at 9 AM: or later?\nAI: We open at 9 AM."} />);
    expect(turnsShown()).toEqual([
      ["ai", "Thank you for calling. How can I help?"],
      ["human", "What time do you open at 9 AM: or later?"],
      ["ai", "We open at 9 AM."],
    ]);
  });

  it("reads an array of turns with content or text", () => {
    render(
      <TranscriptView
        transcript={[
          { role: "system", content: "You are a helpful receptionist." },
          { role: "assistant", content: "Hello, this is the store." },
          { role: "user", text: "Hi, I'd like to book an exam." },
          { role: "bot", text: "Sure, Tuesday at 3 PM works." },
        ]}
      />,
    );
    expect(turnsShown()).toEqual([
      ["ai", "Hello, this is the store."],
      ["human", "Hi, I'd like to book an exam."],
      ["ai", "Sure, Tuesday at 3 PM works."],
    ]);
  });

  it.each([null, undefined, "", "   ", []])("says there is no transcript for %j", (value) => {
    render(<TranscriptView transcript={value} />);
    expect(screen.getByText(CALL_LOG_TEXT.noTranscript)).toBeTruthy();
  });

  it.each([{ messages: [] }, 42, ["AI: hi"], [{ speaker: "AI", content: "hi" }], [{ role: "assistant", message: "hi" }]])(
    "says the format is not recognized for %j",
    (value) => {
      render(<TranscriptView transcript={value} />);
      expect(screen.getByText(CALL_LOG_TEXT.transcriptUnknown)).toBeTruthy();
    },
  );

  it("keeps text before the first prefix", () => {
    expect(parseTranscript("Call connected.\nAI: Hello")).toEqual({
      kind: "turns",
      turns: [
        { speaker: "other", label: "", text: "Call connected." },
        { speaker: "ai", label: CALL_LOG_TEXT.speakerAi, text: "Hello" },
      ],
    });
  });
});

const row: CallLogView = {
  id: 9,
  user_id: "u1",
  call_id: "5d2f0c4a-1111-4b2b-8c3c-123456789abc",
  phone_number: "+13055550123",
  start_time: "2026-03-10T14:05:09.000Z",
  duration: 95,
  status: "ended",
  summary: "Booked an exam.",
  ended_reason: "assistant-ended-call",
  direction: "outbound",
  agent_id: 1,
  recording_url: null,
};

function renderTranscript(log: CallLogView) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <CallTranscript log={log} />
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("CallTranscript", () => {
  it("fetches the platform's transcript into a 400 px scrollable pane", async () => {
    const fetchMock = vi.fn(async (_url: string) => json(200, { id: row.call_id, transcript: "AI: Hello there.\nHuman: Hi!" }));
    vi.stubGlobal("fetch", fetchMock);
    renderTranscript(row);
    expect(await screen.findByText("Hello there.")).toBeTruthy();
    expect(screen.getByText("Hi!")).toBeTruthy();
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/vapi/call/${row.call_id}`);
    const pane = screen.getByRole("region", { name: CALL_LOG_TEXT.transcript });
    expect(TRANSCRIPT_PANE_HEIGHT_PX).toBe(400);
    expect(pane.style.height).toBe("400px");
    expect(pane.className).toContain("overflow-y-auto");
  });

  it("says 'Failed to load transcript' when the fetch fails", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json(500, { error: "Voice platform unavailable", code: "provider_error" })));
    renderTranscript(row);
    expect(await screen.findByText(CALL_LOG_TEXT.transcriptFailed)).toBeTruthy();
  });

  it("does not ask the platform for 'call_' ids and uses the row instead", () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    renderTranscript({ ...row, call_id: "call_8d1f" });
    expect(screen.getByText(CALL_LOG_TEXT.noTranscript)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
