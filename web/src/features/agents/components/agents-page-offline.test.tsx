// The agent form loads on demand (decision 032): when its code cannot be downloaded, Edit says so
// and the card stays, instead of nothing happening.
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AGENT_TEXT } from "@shared/messages";
import { resetToasts } from "@web/lib/toast-store";
import { makeAgent, renderWithApp, stubApi, usageStats, voices } from "../test/render-agents";
import { AgentsPage } from "./agents-page";

vi.mock("./agent-form", () => {
  throw new TypeError("Failed to fetch dynamically imported module");
});

afterEach(() => {
  act(() => resetToasts());
  vi.unstubAllGlobals();
});

describe("AgentsPage without the form's code", () => {
  it("tells that the editor could not open and keeps the card", async () => {
    stubApi({
      "GET /api/agents": { agents: [makeAgent({ id: 1, name: "Front Desk" })] },
      "GET /api/usage-stats": usageStats,
      "GET /api/vapi/voices": voices,
      "GET /api/twilio/my-numbers": { numbers: [] },
    });
    await renderWithApp(<AgentsPage userId="user-1" />);
    await screen.findByRole("heading", { name: "Front Desk" });
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.edit }));
    expect(await screen.findByText(AGENT_TEXT.editorLoadFailed)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Front Desk" })).toBeTruthy();
    expect(screen.queryByLabelText(AGENT_TEXT.nameLabel)).toBeNull();
  });
});
