import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { parseConfig } from "../../env";
import { ApiError } from "../../lib/errors";
import { call } from "../../test/helpers";
import { adapterKinds, createProviders } from "..";
import { LocalPromptWriter, templatePrompt } from "./local";
import { PROMPT_MODEL, WorkersAiPromptWriter } from "./workers-ai";

const agent = {
  name: "Front Desk",
  business_description: "A family dental clinic in Miami.",
  services: "Cleanings, fillings and whitening.",
  agent_instructions: "Book appointments and take messages.",
  pricing_information: "Cleaning $90.",
  documents: "",
};

describe("local prompt writer", () => {
  it("writes the same structured prompt from the same fields", async () => {
    const prompt = await new LocalPromptWriter().generate(agent);
    expect(prompt).toBe(templatePrompt({ ...agent }));
    expect(prompt).toMatch(/^# Role\nYou are Front Desk/);
    for (const part of ["## About the business\nA family dental clinic in Miami.", "## Services\nCleanings", "## Pricing\nCleaning $90.", "## Instructions from the business\nBook", "## Call handling"]) {
      expect(prompt).toContain(part);
    }
    // No empty sections.
    expect(prompt).not.toContain("## Reference documents");
  });

  it("tells the agent not to quote prices when none are given", () => {
    expect(templatePrompt({ ...agent, pricing_information: "  " })).toContain("## Pricing\nDo not quote prices.");
  });
});

describe("Workers AI prompt writer", () => {
  it("asks the model with the agent's fields and returns its trimmed answer", async () => {
    const seen: { model: string; input: any }[] = [];
    const ai = { run: async (model: string, input: any) => (seen.push({ model, input }), { response: "\n You are Front Desk. \n" }) };
    expect(await new WorkersAiPromptWriter(ai).generate(agent)).toBe("You are Front Desk.");
    expect(seen[0].model).toBe(PROMPT_MODEL);
    expect(seen[0].input.messages[0].role).toBe("system");
    expect(seen[0].input.messages[1].content).toContain("Services:\nCleanings, fillings and whitening.");
    expect(seen[0].input.messages[1].content).toContain("Documents:\n(none given)");
  });

  it("reports a failing or empty model as a provider error", async () => {
    const failing = new WorkersAiPromptWriter({ run: async () => Promise.reject(new Error("3040: capacity exceeded")) });
    const err = await failing.generate(agent).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: "provider_error", message: "Workers AI: 3040: capacity exceeded" });
    const empty = new WorkersAiPromptWriter({ run: async () => ({ response: "   " }) });
    expect(await empty.generate(agent).catch((e) => e)).toMatchObject({ status: 502, code: "provider_error" });
  });

  it("is chosen only when the AI binding is bound", () => {
    const config = parseConfig({ APP_ENV: "test" });
    const db = createDb(env.DB);
    const ai = { run: async () => ({ response: "x" }) };
    expect(createProviders(config, db).prompt.kind).toBe("local");
    expect(createProviders(config, db, {}, { AI: {} }).prompt.kind).toBe("local");
    expect(createProviders(config, db, {}, { AI: ai }).prompt.kind).toBe("workers-ai");
    expect(adapterKinds(config).prompt).toBe("local");
    expect(adapterKinds(config, { AI: ai }).prompt).toBe("real");
  });

  it("shows in /api/health", async () => {
    expect((await call("/api/health")).body.providers.prompt).toBe("local");
    const bound = await call("/api/health", { bindings: { AI: { run: async () => ({ response: "x" }) } } });
    expect(bound.body.providers.prompt).toBe("real");
  });
});
