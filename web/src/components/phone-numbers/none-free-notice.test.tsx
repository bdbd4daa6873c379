// The 'nothing left to pair' line: its text, then a link to where the user gets what is missing.
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { AGENT_TEXT, NAV_TEXT, PHONE_TEXT } from "@shared/messages";
import { NoneFreeNotice } from "./none-free-notice";

async function renderInRouter(ui: ReactNode) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <div data-testid="root">{ui}</div> }),
    history: createMemoryHistory({ initialEntries: ["/"] }),
  });
  render(<RouterProvider router={router} />);
  await screen.findByTestId("root");
}

describe("NoneFreeNotice", () => {
  it("tells an agent there is no unassigned number and links to buying one", async () => {
    await renderInRouter(<NoneFreeNotice text={AGENT_TEXT.noFreeNumbers} to="/phone-numbers" linkText={AGENT_TEXT.buyNumber} />);
    expect(screen.getByText(AGENT_TEXT.noFreeNumbers, { exact: false }).textContent).toBe(`${AGENT_TEXT.noFreeNumbers} ${AGENT_TEXT.buyNumber}`);
    expect(screen.getByRole("link", { name: AGENT_TEXT.buyNumber }).getAttribute("href")).toBe("/phone-numbers");
  });

  it("tells a number there is no agent without one and links to the agents", async () => {
    await renderInRouter(<NoneFreeNotice text={PHONE_TEXT.noFreeAgents} to="/agent-settings" linkText={NAV_TEXT.agents} />);
    expect(screen.getByText(PHONE_TEXT.noFreeAgents, { exact: false }).textContent).toBe(`${PHONE_TEXT.noFreeAgents} ${NAV_TEXT.agents}`);
    expect(screen.getByRole("link", { name: NAV_TEXT.agents }).getAttribute("href")).toBe("/agent-settings");
  });
});
