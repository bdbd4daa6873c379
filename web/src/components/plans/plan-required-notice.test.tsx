import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLAN_TEXT } from "@shared/messages";
import type { PlanState, UsageStats } from "@shared/schemas/agents";
import { createQueryClient } from "@web/lib/query-client";
import { PlanRequiredNotice } from "./plan-required-notice";

const usage = (planState: PlanState): UsageStats => ({
  callsThisMonth: 0,
  minutesThisMonth: 0,
  minuteLimit: null,
  agents: 2,
  agentLimit: 5,
  numbers: 0,
  numberLimit: 9,
  plan: null,
  planState,
  planRequired: true,
});

afterEach(() => vi.unstubAllGlobals());

describe("PlanRequiredNotice", () => {
  for (const state of ["none", "trial_ended", "past_due", "ended"] as const) {
    it(`says why the account has no plan (${state}), never "no plan yet" to one that had one`, async () => {
      vi.stubGlobal("fetch", vi.fn(async () => Response.json(usage(state))));
      render(
        <QueryClientProvider client={createQueryClient()}>
          <PlanRequiredNotice />
        </QueryClientProvider>,
      );
      const notice = await screen.findByRole("region", { name: PLAN_TEXT.requiredTitle });
      expect(within(notice).getByText(PLAN_TEXT.requiredReason[state])).toBeTruthy();
      expect(within(notice).getByText(PLAN_TEXT.requiredText)).toBeTruthy();
      if (state !== "none") expect(notice.textContent).not.toContain(PLAN_TEXT.requiredReason.none);
    });
  }
});
