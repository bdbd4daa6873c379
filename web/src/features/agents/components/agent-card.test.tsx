import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AGENT_TEXT } from "@shared/messages";
import { NOT_ASSIGNED } from "@shared/format";
import { resetToasts } from "@web/lib/toast-store";
import { makeAgent, renderWithApp, stubApi, usageStats } from "../test/render-agents";
import { AgentCard } from "./agent-card";

const noop = () => {};

beforeEach(() => {
  stubApi({ "GET /api/usage-stats": usageStats });
});
afterEach(() => {
  act(() => resetToasts());
  vi.unstubAllGlobals();
});

describe("AgentCard", () => {
  it("summarises the agent: status, description, services, voice, its own number, store and type", async () => {
    await renderWithApp(
      <AgentCard
        agent={makeAgent({ vapi_assistant_id: "asst_1", phone_number: "+15125550123", store: "MIAMI", type: "inbound" })}
        voiceName="Marissa"
        onEdit={noop}
        onActivate={noop}
        onDeactivate={noop}
      />,
    );
    expect(screen.getByText("Front Desk")).toBeTruthy();
    expect(screen.getByText(AGENT_TEXT.active)).toBeTruthy();
    expect(screen.getByText("A family dental practice in Austin, open six days a week.")).toBeTruthy();
    expect(screen.getByText("Cleanings, fillings, whitening and emergency visits.")).toBeTruthy();
    expect(screen.getByText("Marissa")).toBeTruthy();
    expect(screen.getByText("+1(512) 555-0123")).toBeTruthy();
    expect(screen.getByText("MIAMI")).toBeTruthy();
    expect(screen.getByText("inbound")).toBeTruthy();
    expect(screen.getByRole("button", { name: AGENT_TEXT.deactivate })).toBeTruthy();
    expect(screen.queryByRole("button", { name: AGENT_TEXT.activate })).toBeNull();
    // An active agent can place a test call.
    expect(screen.getByLabelText(AGENT_TEXT.testCallNumberLabel)).toBeTruthy();
    expect(screen.queryByText(AGENT_TEXT.incomplete)).toBeNull();
  });

  it("shows 'Not Assigned' and Activate, and no test call, for an inactive agent without a number", async () => {
    await renderWithApp(<AgentCard agent={makeAgent()} onEdit={noop} onActivate={noop} onDeactivate={noop} />);
    expect(screen.getByText(AGENT_TEXT.inactive)).toBeTruthy();
    expect(screen.getByText(NOT_ASSIGNED)).toBeTruthy();
    expect((screen.getByRole("button", { name: AGENT_TEXT.activate }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByLabelText(AGENT_TEXT.testCallNumberLabel)).toBeNull();
  });

  it.each([
    ["business_description", { business_description: "" }, "business description"],
    ["services", { services: "  " }, "services"],
    ["agent_instructions", { agent_instructions: "" }, "agent instructions"],
    [
      "all three",
      { business_description: "", services: "", agent_instructions: "" },
      "business description, services and agent instructions",
    ],
  ])("warns 'Agent configuration incomplete' when %s is empty, with a way to complete it", async (_field, overrides, missing) => {
    const onEdit = vi.fn();
    await renderWithApp(<AgentCard agent={makeAgent(overrides)} onEdit={onEdit} onActivate={noop} onDeactivate={noop} />);
    const banner = screen.getByRole("alert");
    expect(within(banner).getByText(AGENT_TEXT.incomplete)).toBeTruthy();
    expect(within(banner).getByText(AGENT_TEXT.incompleteText(missing))).toBeTruthy();
    fireEvent.click(within(banner).getByRole("button", { name: AGENT_TEXT.completeConfiguration }));
    expect(onEdit).toHaveBeenCalledTimes(1);
    // Nothing incomplete goes on the phone.
    expect((screen.getByRole("button", { name: AGENT_TEXT.activate }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers Delete only when a delete action is supplied", async () => {
    await renderWithApp(<AgentCard agent={makeAgent()} onEdit={noop} onActivate={noop} onDeactivate={noop} />);
    expect(screen.queryByRole("button", { name: AGENT_TEXT.delete })).toBeNull();
    expect(screen.getByRole("button", { name: AGENT_TEXT.edit })).toBeTruthy();
  });

  it("asks before deleting: the name in quotes, 'This action cannot be undone', no assistant note when inactive", async () => {
    const onDelete = vi.fn(async () => {});
    await renderWithApp(<AgentCard agent={makeAgent()} onEdit={noop} onDelete={onDelete} onActivate={noop} onDeactivate={noop} />);
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.delete }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByRole("heading").textContent).toBe("Delete agent “Front Desk”?");
    expect(within(dialog).getByText(AGENT_TEXT.deleteUndone)).toBeTruthy();
    expect(within(dialog).queryByText(AGENT_TEXT.deleteAssistantNote)).toBeNull();

    fireEvent.click(within(dialog).getByRole("button", { name: AGENT_TEXT.cancel }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(onDelete).not.toHaveBeenCalled();
  });

  it("notes the linked assistant when the agent is active, and deletes on confirmation", async () => {
    const onDelete = vi.fn(async () => {});
    await renderWithApp(
      <AgentCard
        agent={makeAgent({ vapi_assistant_id: "asst_1" })}
        onEdit={noop}
        onDelete={onDelete}
        onActivate={noop}
        onDeactivate={noop}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.delete }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText(AGENT_TEXT.deleteUndone)).toBeTruthy();
    expect(within(dialog).getByText(AGENT_TEXT.deleteAssistantNote)).toBeTruthy();
    // Announced with the question: the note belongs to the dialog's accessible description.
    const description = document.getElementById(dialog.getAttribute("aria-describedby") ?? "");
    expect(description?.textContent).toContain(AGENT_TEXT.deleteUndone);
    expect(description?.textContent).toContain(AGENT_TEXT.deleteAssistantNote);
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: AGENT_TEXT.delete })));
    expect(onDelete).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });
});
