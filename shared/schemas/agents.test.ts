import { describe, expect, it } from "vitest";
import { DEFAULT_VOICE_ID, NEW_AGENT_ID } from "../constants";
import { AGENT_API_TEXT, AGENT_TEXT, VALIDATION } from "../messages";
import {
  activateAgentBody,
  agentCreateBody,
  agentFormSchema,
  agentUpdateBody,
  generatePromptBody,
  isAgentActive,
  isAgentIncomplete,
  nextNewAgentName,
  normalizeDialNumber,
  triggerCallBody,
} from "./agents";

const complete = {
  name: "Front desk",
  business_description: "A family dental clinic in Miami.",
  services: "Cleanings, fillings, whitening and check-ups.",
  agent_instructions: "Greet callers warmly and book appointments.",
};

const firstMessage = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  r.error ? { field: r.error.issues[0].path.join("."), message: r.error.issues[0].message } : null;

describe("agent status helpers", () => {
  it("an agent is active exactly when it has an assistant id", () => {
    expect(isAgentActive({ vapi_assistant_id: "asst_1" })).toBe(true);
    expect(isAgentActive({ vapi_assistant_id: null })).toBe(false);
    expect(isAgentActive({ vapi_assistant_id: "" })).toBe(false);
    expect(isAgentActive({})).toBe(false);
  });

  it("an agent is incomplete when description, services or instructions is empty", () => {
    expect(isAgentIncomplete(complete)).toBe(false);
    expect(isAgentIncomplete({ ...complete, business_description: "" })).toBe(true);
    expect(isAgentIncomplete({ ...complete, services: "   " })).toBe(true);
    expect(isAgentIncomplete({ ...complete, agent_instructions: null })).toBe(true);
    // Short but present fields do not make the card warn; activation checks the minimums.
    expect(isAgentIncomplete({ ...complete, services: "short" })).toBe(false);
  });

  it("names new agents 'New Agent', 'New Agent 2', … unique case-insensitively", () => {
    expect(nextNewAgentName([])).toBe("New Agent");
    expect(nextNewAgentName(["Reception"])).toBe("New Agent");
    expect(nextNewAgentName(["new agent"])).toBe("New Agent 2");
    expect(nextNewAgentName(["New Agent", "NEW AGENT 2", " new agent 3 "])).toBe("New Agent 4");
    expect(nextNewAgentName(["New Agent", "New Agent 3"])).toBe("New Agent 2");
  });

  it("keeps the unsaved-agent id and default voice of the spec", () => {
    expect(NEW_AGENT_ID).toBe(-1);
    expect(DEFAULT_VOICE_ID).toBe("marissa-11labs");
  });
});

describe("agent form (docs/product/errors-and-texts.md#validation-messages)", () => {
  it("accepts a complete agent", () => {
    expect(agentFormSchema.safeParse(complete).success).toBe(true);
  });

  it.each([
    ["name", "A", VALIDATION.agentNameMin],
    ["business_description", "Too short", VALIDATION.businessDescriptionMin],
    ["services", "x".repeat(19), VALIDATION.servicesMin],
    ["agent_instructions", "  padded short text   ", VALIDATION.agentInstructionsMin],
  ])("refuses %s below its minimum with the spec's message", (field, value, message) => {
    const r = agentFormSchema.safeParse({ ...complete, [field]: value });
    expect(firstMessage(r)).toEqual({ field, message });
  });

  it("counts the minimum on trimmed text", () => {
    expect(agentFormSchema.safeParse({ ...complete, services: `${"x".repeat(20)}  ` }).success).toBe(true);
    expect(agentFormSchema.safeParse({ ...complete, services: ` ${"x".repeat(19)} ` }).success).toBe(false);
  });

  it("generate-prompt takes the same rules", () => {
    expect(firstMessage(generatePromptBody.safeParse({ ...complete, services: "" }))).toEqual({
      field: "services",
      message: VALIDATION.servicesMin,
    });
  });
});

describe("agent API bodies (docs/product/errors-and-texts.md#validation-messages)", () => {
  it("create requires a name, missing or blank", () => {
    expect(firstMessage(agentCreateBody.safeParse({}))).toEqual({ field: "name", message: AGENT_TEXT.nameRequired });
    expect(firstMessage(agentCreateBody.safeParse({ name: "   " }))).toEqual({ field: "name", message: AGENT_TEXT.nameRequired });
  });

  it("create accepts an incomplete agent, filling empty fields and dropping server-managed ones", () => {
    const r = agentCreateBody.parse({ name: " Sales ", services: null, vapi_assistant_id: "asst_x", prompt: "p" });
    expect(r).toMatchObject({ name: "Sales", business_description: "", services: "", store: null, type: null });
    expect(r).not.toHaveProperty("vapi_assistant_id");
    expect(r).not.toHaveProperty("prompt");
  });

  it("create refuses an unknown store", () => {
    expect(firstMessage(agentCreateBody.safeParse({ name: "Sales", store: "PARIS" }))?.field).toBe("store");
  });

  it("update is partial but still refuses a blank name", () => {
    expect(agentUpdateBody.parse({})).toEqual({});
    expect(agentUpdateBody.parse({ services: "New services" })).toEqual({ services: "New services" });
    expect(firstMessage(agentUpdateBody.safeParse({ name: "" }))).toEqual({ field: "name", message: AGENT_TEXT.nameRequired });
  });

  it("activation needs a saved agent id", () => {
    expect(activateAgentBody.parse({ agent_id: "7" }).agent_id).toBe(7);
    for (const agent_id of [undefined, -1, 0, "abc", 1.5]) {
      expect(firstMessage(activateAgentBody.safeParse({ agent_id }))).toEqual({
        field: "agent_id",
        message: AGENT_API_TEXT.saveBeforeActivate,
      });
    }
  });
});

describe("test-call numbers", () => {
  it.each([
    ["+15551234567", "+15551234567"],
    ["(555) 123-4567", "+15551234567"],
    ["1 555 123 4567", "+15551234567"],
    ["555.123.4567", "+15551234567"],
    ["+44 20 7946 0958", "+442079460958"],
  ])("normalises %s to %s", (input, expected) => {
    expect(normalizeDialNumber(input)).toBe(expected);
    expect(triggerCallBody.parse({ phoneNumber: input }).phoneNumber).toBe(expected);
  });

  it.each(["", "12345", "555-123-456", "25551234567", "+1555123456", "+0123456789", "call me", "+15551234567x2"])(
    "refuses %j naming phoneNumber",
    (input) => {
      expect(normalizeDialNumber(input)).toBeNull();
      expect(firstMessage(triggerCallBody.safeParse({ phoneNumber: input }))).toEqual({
        field: "phoneNumber",
        message: AGENT_API_TEXT.invalidPhone,
      });
    },
  );
});
