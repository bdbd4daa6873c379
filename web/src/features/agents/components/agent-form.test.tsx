import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AGENT_TEXT, VALIDATION } from "@shared/messages";
import { resetToasts } from "@web/lib/toast-store";
import { newAgentDraft } from "../agent-editor";
import { makeAgent, renderWithApp, stubApi, voices } from "../test/render-agents";
import { AgentForm } from "./agent-form";

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const errorOf = (label: string) => {
  const ids = screen.getByLabelText(label).getAttribute("aria-describedby") ?? "";
  return ids
    .split(" ")
    .map((id) => document.getElementById(id))
    .find((el) => el?.id.endsWith("-error"))?.textContent;
};
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

const twenty = "x".repeat(20);

async function renderForm(props: Partial<Parameters<typeof AgentForm>[0]> = {}) {
  const onSave = vi.fn(async () => {});
  const onCancel = vi.fn();
  await renderWithApp(<AgentForm agent={newAgentDraft("New Agent")} agents={[]} onSave={onSave} onCancel={onCancel} {...props} />);
  return { onSave, onCancel };
}

async function fillStepOne() {
  type(AGENT_TEXT.nameLabel, "Front Desk");
  type(AGENT_TEXT.businessDescriptionLabel, "A family dental practice in Austin.");
  type(AGENT_TEXT.servicesLabel, "Cleanings, fillings and whitening.");
  await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(false));
  await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
  await screen.findByLabelText(AGENT_TEXT.instructionsLabel);
}

beforeEach(() => {
  stubApi({ "GET /api/vapi/voices": voices });
});
afterEach(() => {
  act(() => resetToasts());
  vi.unstubAllGlobals();
});

describe("AgentForm", () => {
  it("shows step 1 with the mandatory notice and every labelled field", async () => {
    await renderForm();
    expect(screen.getByText(`1. ${AGENT_TEXT.basicInfo}`).getAttribute("aria-current")).toBe("step");
    expect(screen.getByText(`2. ${AGENT_TEXT.instructions}`)).toBeTruthy();
    expect(screen.getByText(AGENT_TEXT.mandatoryNotice)).toBeTruthy();
    for (const label of [
      AGENT_TEXT.nameLabel,
      AGENT_TEXT.businessDescriptionLabel,
      AGENT_TEXT.servicesLabel,
      AGENT_TEXT.pricingLabel,
      AGENT_TEXT.documentsLabel,
      AGENT_TEXT.voiceLabel,
    ]) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    expect((screen.getByLabelText(AGENT_TEXT.nameLabel) as HTMLInputElement).value).toBe("New Agent");
    // A new agent keeps the default voice until it is saved (docs/product/errors-and-texts.md#validation-messages).
    const voice = screen.getByLabelText(AGENT_TEXT.voiceLabel);
    await waitFor(() => expect(voice.textContent).toContain("Marissa"));
    expect((voice as HTMLButtonElement).disabled).toBe(true);
  });

  it("enables Next only when name, business description and services are all filled", async () => {
    await renderForm();
    expect(button(AGENT_TEXT.next).disabled).toBe(true);
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(true));
    type(AGENT_TEXT.servicesLabel, twenty);
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(false));
    type(AGENT_TEXT.nameLabel, "");
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(true));
    type(AGENT_TEXT.nameLabel, "Desk");
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(false));
    type(AGENT_TEXT.servicesLabel, "");
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(true));
  });

  it("shows each minimum-length message as the person types, and clears it when met", async () => {
    await renderForm();
    type(AGENT_TEXT.nameLabel, "A");
    await waitFor(() => expect(errorOf(AGENT_TEXT.nameLabel)).toBe(VALIDATION.agentNameMin));
    type(AGENT_TEXT.nameLabel, "Al");
    await waitFor(() => expect(errorOf(AGENT_TEXT.nameLabel)).toBeUndefined());

    type(AGENT_TEXT.businessDescriptionLabel, "Too short");
    await waitFor(() => expect(errorOf(AGENT_TEXT.businessDescriptionLabel)).toBe(VALIDATION.businessDescriptionMin));
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    await waitFor(() => expect(errorOf(AGENT_TEXT.businessDescriptionLabel)).toBeUndefined());

    type(AGENT_TEXT.servicesLabel, "Cleanings");
    await waitFor(() => expect(errorOf(AGENT_TEXT.servicesLabel)).toBe(VALIDATION.servicesMin));

    // Next does not leave step 1 while a rule is broken.
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    expect(screen.queryByLabelText(AGENT_TEXT.instructionsLabel)).toBeNull();

    type(AGENT_TEXT.servicesLabel, twenty);
    await waitFor(() => expect(errorOf(AGENT_TEXT.servicesLabel)).toBeUndefined());
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    await screen.findByLabelText(AGENT_TEXT.instructionsLabel);

    type(AGENT_TEXT.instructionsLabel, "Be nice");
    await waitFor(() => expect(errorOf(AGENT_TEXT.instructionsLabel)).toBe(VALIDATION.agentInstructionsMin));
    type(AGENT_TEXT.instructionsLabel, twenty);
    await waitFor(() => expect(errorOf(AGENT_TEXT.instructionsLabel)).toBeUndefined());
  });

  it("enables Save and Save & Activate only with instructions; Back returns to step 1 with the values", async () => {
    const { onSave } = await renderForm();
    await fillStepOne();
    expect(screen.getByText(`2. ${AGENT_TEXT.instructions}`).getAttribute("aria-current")).toBe("step");
    expect(button(AGENT_TEXT.save).disabled).toBe(true);
    expect(button(AGENT_TEXT.saveAndActivate).disabled).toBe(true);

    type(AGENT_TEXT.instructionsLabel, "Greet callers and book their appointments.");
    await waitFor(() => expect(button(AGENT_TEXT.save).disabled).toBe(false));
    expect(button(AGENT_TEXT.saveAndActivate).disabled).toBe(false);

    fireEvent.click(button(AGENT_TEXT.back));
    expect(((await screen.findByLabelText(AGENT_TEXT.nameLabel)) as HTMLInputElement).value).toBe("Front Desk");
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    expect((screen.getByLabelText(AGENT_TEXT.instructionsLabel) as HTMLTextAreaElement).value).toBe(
      "Greet callers and book their appointments.",
    );

    await act(async () => fireEvent.click(button(AGENT_TEXT.saveAndActivate)));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        name: "Front Desk",
        business_description: "A family dental practice in Austin.",
        services: "Cleanings, fillings and whitening.",
        agent_instructions: "Greet callers and book their appointments.",
      }),
      { activate: true },
    );
  });

  it("refuses a blank name with 'Name required' before anything is saved", async () => {
    const { onSave } = await renderForm();
    type(AGENT_TEXT.nameLabel, "   ");
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    type(AGENT_TEXT.servicesLabel, twenty);
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(false));
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    expect(await screen.findByText(AGENT_TEXT.nameRequiredTitle)).toBeTruthy();
    expect(screen.getByText(AGENT_TEXT.nameRequired)).toBeTruthy();
    expect(screen.queryByLabelText(AGENT_TEXT.instructionsLabel)).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("refuses a name another agent has, ignoring case, with 'Duplicate name'", async () => {
    const { onSave } = await renderForm({ agents: [makeAgent({ id: 3, name: "front desk" })] });
    type(AGENT_TEXT.nameLabel, "Front Desk");
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    type(AGENT_TEXT.servicesLabel, twenty);
    await waitFor(() => expect(button(AGENT_TEXT.next).disabled).toBe(false));
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    expect(await screen.findByText(AGENT_TEXT.duplicateTitle)).toBeTruthy();
    expect(screen.getByText(AGENT_TEXT.duplicate)).toBeTruthy();
    // Still on step 1, where the name can be changed.
    expect(screen.queryByLabelText(AGENT_TEXT.instructionsLabel)).toBeNull();
    type(AGENT_TEXT.nameLabel, "Front Desk 2");
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    await screen.findByLabelText(AGENT_TEXT.instructionsLabel);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("sets a new agent's store and type, chosen from the nine stores and the two types", async () => {
    const { onSave } = await renderForm();
    const store = screen.getByLabelText(AGENT_TEXT.storeLabel) as HTMLSelectElement;
    const kind = screen.getByLabelText(AGENT_TEXT.typeLabel) as HTMLSelectElement;
    expect([store.value, kind.value]).toEqual(["", ""]);
    expect([...store.options].map((o) => o.textContent)).toEqual([
      AGENT_TEXT.noStore,
      "Iowa city (IOWA)",
      "Largo (LARGO)",
      "Miami (MIAMI)",
      "Naples (NAPLES)",
      "Pembroke Pines (PEMBROKE)",
      "Tulsa (TULSA)",
      "Tyler (TYLER)",
      "Woodlands (WOODLANDS)",
      "Oklahoma City (OKC)",
    ]);
    fireEvent.change(store, { target: { value: "OKC" } });
    fireEvent.change(kind, { target: { value: "outbound" } });
    await fillStepOne();
    type(AGENT_TEXT.instructionsLabel, "Call back customers who missed their appointment.");
    await waitFor(() => expect(button(AGENT_TEXT.save).disabled).toBe(false));
    await act(async () => fireEvent.click(button(AGENT_TEXT.save)));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ store: "OKC", type: "outbound" }), { activate: false }));
  });

  it("shows a saved agent's store and type, and changes or clears them", async () => {
    const agent = makeAgent({ id: 3, name: "Front Desk", store: "MIAMI", type: "reminder" });
    const { onSave } = await renderForm({ agent, agents: [agent] });
    const store = screen.getByLabelText(AGENT_TEXT.storeLabel) as HTMLSelectElement;
    const kind = screen.getByLabelText(AGENT_TEXT.typeLabel) as HTMLSelectElement;
    // A type the form does not offer stays the agent's until it is changed.
    await waitFor(() => expect([store.value, kind.value]).toEqual(["MIAMI", "reminder"]));
    fireEvent.change(store, { target: { value: "NAPLES" } });
    fireEvent.change(kind, { target: { value: "" } });
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    await screen.findByLabelText(AGENT_TEXT.instructionsLabel);
    await act(async () => fireEvent.click(button(AGENT_TEXT.save)));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ store: "NAPLES", type: null }), { activate: false }));
  });

  it("lets an existing agent keep its own name and choose another voice", async () => {
    const agent = makeAgent({ id: 3, name: "Front Desk" });
    const { onSave } = await renderForm({ agent, agents: [agent] });
    const voice = screen.getByLabelText(AGENT_TEXT.voiceLabel) as HTMLButtonElement;
    await waitFor(() => expect(voice.disabled).toBe(false));
    await act(async () => fireEvent.click(button(AGENT_TEXT.next)));
    await screen.findByLabelText(AGENT_TEXT.instructionsLabel);
    await act(async () => fireEvent.click(button(AGENT_TEXT.save)));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ name: "Front Desk" }), { activate: false }));
  });
});
