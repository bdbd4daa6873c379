import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_CALL_POLL } from "@shared/constants";
import { AGENT_API_TEXT, AGENT_TEXT, PLAN_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";
import { myNumberKeys } from "@web/api/phone-numbers";
import { callLogKeys } from "@web/api/call-logs";
import { resetToasts } from "@web/lib/toast-store";
import { makeAgent, renderWithApp, stubApi, usageStats, voices } from "../test/render-agents";
import { AgentsPage } from "./agents-page";

const twenty = "x".repeat(20);
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const chips = () => within(screen.getByRole("group", { name: AGENT_TEXT.agentChips }));
const pressedChip = () => chips().getByRole("button", { pressed: true });

/** A small in-memory account behind the stubbed fetch; `extra` adds or overrides routes. */
function fakeAccount(initial: Agent[], extra: Record<string, unknown> = {}) {
  let agents = [...initial];
  const api = stubApi({
    "GET /api/agents": () => ({ agents }),
    "GET /api/usage-stats": usageStats,
    "GET /api/vapi/voices": voices,
    "GET /api/twilio/my-numbers": { numbers: [] },
    ...extra,
  });
  return {
    ...api,
    set: (next: Agent[]) => {
      agents = next;
    },
    get agents() {
      return agents;
    },
  };
}

async function renderScreen() {
  await renderWithApp(<AgentsPage userId="user-1" />);
}

afterEach(() => {
  act(() => resetToasts());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("AgentsPage", () => {
  it("tells an account without a plan, before it tries, that activation, numbers and test calls need one", async () => {
    fakeAccount([makeAgent()], { "GET /api/usage-stats": { ...usageStats, plan: null, planState: "none", minuteLimit: null, planRequired: true } });
    await renderWithApp(<AgentsPage userId="user-1" email="new@store.example" />);
    const notice = await screen.findByRole("region", { name: PLAN_TEXT.requiredTitle });
    expect(within(notice).getByText(PLAN_TEXT.requiredText)).toBeTruthy();
    expect(within(notice).getByRole("link", { name: PLAN_TEXT.choosePlan }).getAttribute("href")).toBe("/buy?email=new%40store.example");
  });

  it("says nothing of plans to an account that has one", async () => {
    const api = fakeAccount([makeAgent()], { "GET /api/usage-stats": { ...usageStats, plan: "basic", planRequired: false } });
    await renderWithApp(<AgentsPage userId="user-1" email="new@store.example" />);
    await screen.findByRole("button", { name: AGENT_TEXT.addNew });
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/usage-stats")).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole("region", { name: PLAN_TEXT.requiredTitle })).toBeNull();
  });

  it("auto-selects the first agent and switches with the chips", async () => {
    fakeAccount([makeAgent({ id: 1, name: "Front Desk" }), makeAgent({ id: 2, name: "After Hours" })]);
    await renderScreen();
    await waitFor(() => expect(pressedChip().textContent).toContain("Front Desk"));
    expect(screen.getByRole("heading", { name: "Front Desk" })).toBeTruthy();
    fireEvent.click(chips().getByRole("button", { name: /After Hours/ }));
    expect(screen.getByRole("heading", { name: "After Hours" })).toBeTruthy();
    expect(pressedChip().textContent).toContain("After Hours");
  });

  it("lays the screen out in one column that cannot grow past a phone's width, however long an agent's name", async () => {
    fakeAccount([makeAgent({ id: 1, name: "Pembroke Pines Outbound Scheduler for the evening and weekend line" })]);
    await renderScreen();
    await screen.findByRole("heading", { name: /Pembroke Pines/ });
    // The chips, the card and the numbers list share this grid. Tailwind's `grid-cols-1` is
    // minmax(0, 1fr): an auto column would take the longest unbroken row (a name that should be
    // truncated) as its minimum and make the whole page scroll sideways on a 390 px phone.
    const column = screen.getByRole("group", { name: AGENT_TEXT.agentChips }).parentElement!;
    expect(column.className.split(/\s+/)).toEqual(expect.arrayContaining(["grid", "grid-cols-1"]));
    expect(within(column).getByTestId("agent-number-1")).toBeTruthy();
  });

  it("names a new unsaved agent 'New Agent', 'New Agent 2', … the first free one ignoring case", async () => {
    fakeAccount([
      makeAgent({ id: 1, name: "new agent" }),
      makeAgent({ id: 2, name: "NEW AGENT 2" }),
      makeAgent({ id: 3, name: "New Agent 4" }),
    ]);
    await renderScreen();
    await screen.findByRole("heading", { name: "new agent" });
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    // The new agent opens straight in the form, with its own chip selected.
    expect(((await screen.findByLabelText(AGENT_TEXT.nameLabel)) as HTMLInputElement).value).toBe("New Agent 3");
    expect(pressedChip().textContent).toContain("New Agent 3");
    // A second click returns to the same unsaved agent instead of making another.
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    expect(chips().getAllByRole("button")).toHaveLength(4);
    // Cancel drops it and shows the selected agent again.
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.cancel }));
    expect(chips().getAllByRole("button")).toHaveLength(3);
    expect(screen.getByRole("heading", { name: "new agent" })).toBeTruthy();
  });

  it("creates a new agent through both steps, toasts, and selects it", async () => {
    const account = fakeAccount([makeAgent({ id: 1, name: "Front Desk" })], {
      "POST /api/agents": ({ body }: { body: Partial<Agent> }) => {
        const created = makeAgent({ ...body, id: 9 });
        account.set([...account.agents, created]);
        return Response.json({ agent: created }, { status: 201 });
      },
    });
    await renderScreen();
    await screen.findByRole("heading", { name: "Front Desk" });
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    await screen.findByLabelText(AGENT_TEXT.nameLabel);
    type(AGENT_TEXT.nameLabel, "Evening Line");
    type(AGENT_TEXT.businessDescriptionLabel, `Evening desk ${twenty}`);
    type(AGENT_TEXT.servicesLabel, `Bookings ${twenty}`);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.next })));
    type(AGENT_TEXT.instructionsLabel, `Be brief ${twenty}`);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.save })));

    expect(await screen.findByText(AGENT_TEXT.createdTitle)).toBeTruthy();
    expect(screen.getByText(AGENT_TEXT.created)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Evening Line" })).toBeTruthy();
    expect(pressedChip().textContent).toContain("Evening Line");
    const post = account.calls.find((c) => c.method === "POST" && c.path === "/api/agents");
    expect(post?.body).toEqual({
      name: "Evening Line",
      business_description: `Evening desk ${twenty}`,
      services: `Bookings ${twenty}`,
      agent_instructions: `Be brief ${twenty}`,
      pricing_information: "",
      documents: "",
      store: null,
      type: null,
    });
  });

  it("offers an agent without a number the free ones in a select that loads on its own, labelled for the agent throughout", async () => {
    const free = { id: 4, phone_number: "+15125550188", friendly_name: null, locality: "Austin", region: "TX", iso_country: "US", sid: "PN4", vapi_phone_number_id: null, agent_id: null, agents: null };
    fakeAccount([makeAgent({ id: 7, name: "Front Desk" })], { "GET /api/twilio/my-numbers": () => ({ numbers: [free] }) });
    await renderScreen();
    // The select's code comes after the numbers (decision 035): the real select takes the label's
    // place, showing the same prompt the placeholder showed.
    const picker = await screen.findByRole("combobox", { name: AGENT_TEXT.numberFor("Front Desk") });
    expect(picker.textContent).toContain(AGENT_TEXT.chooseNumber);
    expect(screen.getAllByLabelText(AGENT_TEXT.numberFor("Front Desk"))).toEqual([picker]);
    expect(screen.getByRole("button", { name: new RegExp(AGENT_TEXT.assign) }).hasAttribute("disabled")).toBe(true);
  });

  it("renaming an agent refreshes the numbers list, which names each number's agent", async () => {
    const number = { id: 3, phone_number: "+15125550123", friendly_name: null, locality: "Austin", region: "TX", iso_country: "US", sid: "PN3" };
    const account = fakeAccount([makeAgent({ id: 7, name: "Front Desk", twilio_number_id: 3, phone_number: number.phone_number })], {
      "GET /api/twilio/my-numbers": () => ({ numbers: [{ ...number, agent_id: 7, agents: { name: account.agents[0].name } }] }),
      "PUT /api/agents/7": ({ body }: { body: Partial<Agent> }) => {
        const saved = { ...account.agents[0], ...body };
        account.set([saved]);
        return { agent: saved };
      },
    });
    const { queryClient } = await renderWithApp(<AgentsPage userId="user-1" />);
    await screen.findByRole("heading", { name: "Front Desk" });
    await waitFor(() => expect(queryClient.getQueryData<{ numbers: { agents: { name: string } }[] }>(myNumberKeys.all)).toBeTruthy());

    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.edit }));
    type(AGENT_TEXT.nameLabel, "Reception");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.next })));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.save })));
    expect(await screen.findByText(AGENT_TEXT.saved)).toBeTruthy();

    // 'My numbers' (Phone numbers screen) reads this cache entry: it must not keep the old name.
    await waitFor(() =>
      expect(queryClient.getQueryData<{ numbers: { agents: { name: string } }[] }>(myNumberKeys.all)?.numbers[0].agents.name).toBe("Reception"),
    );
  });

  it("says 'Failed to create agent. Please try again.' when the server gives no reason, and 'Duplicate name' on a 409", async () => {
    let answer = new Response("", { status: 500 });
    fakeAccount([], { "POST /api/agents": () => answer });
    await renderScreen();
    await screen.findByText(AGENT_TEXT.emptyTitle);
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    await screen.findByLabelText(AGENT_TEXT.nameLabel);
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    type(AGENT_TEXT.servicesLabel, twenty);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.next })));
    type(AGENT_TEXT.instructionsLabel, twenty);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.save })));
    expect(await screen.findByText(AGENT_TEXT.createFailed)).toBeTruthy();
    // Still editing: nothing was lost.
    expect(screen.getByLabelText(AGENT_TEXT.instructionsLabel)).toBeTruthy();

    answer = Response.json({ error: AGENT_TEXT.duplicate, code: "duplicate_name", field: "name", requestId: "r1" }, { status: 409 });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.save })));
    expect(await screen.findByText(AGENT_TEXT.duplicateTitle)).toBeTruthy();
  });

  it("offers the Upgrade link when the plan's agent limit refuses a new agent, from the form and from the empty state", async () => {
    const limit = () =>
      Response.json(
        { error: AGENT_API_TEXT.agentLimitReached(5), code: "agent_limit_reached", maxAllowed: 5, currentCount: 5, upgradeUrl: "/buy", requestId: "r1" },
        { status: 403 },
      );
    fakeAccount([], { "POST /api/agents": limit, "POST /api/create-default-agent": limit });
    await renderScreen();
    await screen.findByText(AGENT_TEXT.emptyTitle);
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.emptyButton }));
    expect(await screen.findByText(AGENT_API_TEXT.agentLimitReached(5))).toBeTruthy();
    expect(screen.getByRole("link", { name: PLAN_TEXT.upgrade }).getAttribute("href")).toBe("/buy");
    act(() => resetToasts());

    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    await screen.findByLabelText(AGENT_TEXT.nameLabel);
    type(AGENT_TEXT.businessDescriptionLabel, twenty);
    type(AGENT_TEXT.servicesLabel, twenty);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.next })));
    type(AGENT_TEXT.instructionsLabel, twenty);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.save })));
    expect(await screen.findByText(AGENT_API_TEXT.agentLimitReached(5))).toBeTruthy();
    expect((await screen.findByRole("link", { name: PLAN_TEXT.upgrade })).getAttribute("href")).toBe("/buy");
  });

  it("activates: fetches the agent, has the server create the assistant and write its prompt, then toasts", async () => {
    const agent = makeAgent({ id: 7, name: "Front Desk", voice_id: "sarah-11labs" });
    const account = fakeAccount([agent], {
      "GET /api/agents/7": { agent },
      "POST /api/create-vapi-assistant": () => {
        const activated = { ...agent, vapi_assistant_id: "asst_1", prompt: "You are Front Desk." };
        account.set([activated]);
        return { id: "asst_1", agent: activated };
      },
    });
    await renderScreen();
    await screen.findByRole("heading", { name: "Front Desk" });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.activate })));

    expect(await screen.findByText(AGENT_TEXT.activated)).toBeTruthy();
    const steps = account.calls.filter((c) => c.method !== "GET" || c.path === "/api/agents/7").map((c) => `${c.method} ${c.path}`);
    expect(steps).toEqual(["GET /api/agents/7", "POST /api/create-vapi-assistant"]);
    const [create] = account.calls.filter((c) => c.method === "POST");
    expect(create.body).toEqual({ agent_id: 7, name: "Front Desk", voice_id: "sarah-11labs" });
    // The card now shows the agent as active.
    await screen.findByRole("button", { name: AGENT_TEXT.deactivate });
    expect(screen.getAllByText(AGENT_TEXT.active).length).toBeGreaterThan(0);
  });

  it("creates and activates a new agent with Save & Activate in four requests where it took seven", async () => {
    const account = fakeAccount([makeAgent({ id: 1, name: "Front Desk" })], {
      "POST /api/agents": ({ body }: { body: Partial<Agent> }) => {
        const created = makeAgent({ ...body, id: 9 });
        account.set([...account.agents, created]);
        return Response.json({ agent: created }, { status: 201 });
      },
      "GET /api/agents/9": () => ({ agent: account.agents.find((a) => a.id === 9) }),
      "POST /api/generate-prompt": { prompt: "You are Evening Line." },
      "POST /api/create-vapi-assistant": () => {
        const activated = { ...account.agents.find((a) => a.id === 9)!, vapi_assistant_id: "asst_9", prompt: "You are Evening Line." };
        account.set(account.agents.map((a) => (a.id === 9 ? activated : a)));
        return { id: "asst_9", agent: activated };
      },
    });
    await renderScreen();
    await screen.findByRole("heading", { name: "Front Desk" });
    await waitFor(() => expect(account.calls.some((c) => c.path === "/api/twilio/my-numbers")).toBe(true));
    account.calls.length = 0;

    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.addNew }));
    await screen.findByLabelText(AGENT_TEXT.nameLabel);
    type(AGENT_TEXT.nameLabel, "Evening Line");
    type(AGENT_TEXT.businessDescriptionLabel, `Evening desk ${twenty}`);
    type(AGENT_TEXT.servicesLabel, `Bookings ${twenty}`);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.next })));
    type(AGENT_TEXT.instructionsLabel, `Be brief ${twenty}`);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.saveAndActivate })));

    expect(await screen.findByText(AGENT_TEXT.activated)).toBeTruthy();
    await screen.findByRole("button", { name: AGENT_TEXT.deactivate });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = account.calls.map((c) => `${c.method} ${c.path}`);
    // Four requests: the created agent is not fetched again, the prompt stays on the server, and the
    // list is refetched once, after the activation.
    expect(requests).toEqual(["POST /api/agents", "GET /api/usage-stats", "POST /api/create-vapi-assistant", "GET /api/agents"]);
    expect(account.calls.find((c) => c.path === "/api/create-vapi-assistant")?.body).toEqual({
      agent_id: 9,
      name: "Evening Line",
      voice_id: makeAgent().voice_id,
    });
  });

  it("stops and says so when a step of the activation fails", async () => {
    const agent = makeAgent({ id: 7 });
    const account = fakeAccount([agent], {
      "GET /api/agents/7": { agent },
      "POST /api/generate-prompt": { prompt: "You are Front Desk." },
      "POST /api/create-vapi-assistant": Response.json(
        { error: "VAPI: 500 Internal Server Error", code: "provider_error", requestId: "r2" },
        { status: 502 },
      ),
    });
    await renderScreen();
    await screen.findByRole("heading", { name: "Front Desk" });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.activate })));
    expect(await screen.findByText(AGENT_TEXT.activateFailed)).toBeTruthy();
    expect(screen.getByText("VAPI: 500 Internal Server Error")).toBeTruthy();
    expect(screen.getByRole("button", { name: AGENT_TEXT.activate })).toBeTruthy();
    expect(account.calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });

  it("deactivates an active agent in one call", async () => {
    const agent = makeAgent({ id: 7, vapi_assistant_id: "asst_1" });
    const account = fakeAccount([agent], {
      "PATCH /api/agents/7/deactivate": () => {
        const off = { ...agent, vapi_assistant_id: null };
        account.set([off]);
        return { success: true, agent: off };
      },
    });
    await renderScreen();
    // Found outside act(): inside it React holds back the deferred render that shows the list.
    const deactivate = await screen.findByRole("button", { name: AGENT_TEXT.deactivate });
    await act(async () => fireEvent.click(deactivate));
    expect(await screen.findByText(AGENT_TEXT.deactivated)).toBeTruthy();
    await screen.findByRole("button", { name: AGENT_TEXT.activate });
  });

  it("deletes after confirmation, toasts, and clears the selection back to the first agent", async () => {
    const account = fakeAccount([makeAgent({ id: 1, name: "Front Desk" }), makeAgent({ id: 2, name: "After Hours" })], {
      "DELETE /api/agents/2": () => {
        account.set(account.agents.filter((a) => a.id !== 2));
        return { success: true };
      },
    });
    await renderScreen();
    await screen.findByRole("heading", { name: "Front Desk" });
    fireEvent.click(chips().getByRole("button", { name: /After Hours/ }));
    fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.delete }));
    const dialog = await screen.findByRole("alertdialog");
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: AGENT_TEXT.delete })));
    expect(await screen.findByText(AGENT_TEXT.deleted)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Front Desk" })).toBeTruthy();
    expect(chips().getAllByRole("button")).toHaveLength(1);
  });

  it("creates the first agent from the empty state", async () => {
    const account = fakeAccount([], {
      "POST /api/create-default-agent": () => {
        const created = makeAgent({ id: 4, name: "New Agent" });
        account.set([created]);
        return Response.json({ agent: created }, { status: 201 });
      },
    });
    await renderScreen();
    expect(await screen.findByText(AGENT_TEXT.emptyTitle)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.emptyButton })));
    expect(await screen.findByText(AGENT_TEXT.defaultCreated)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "New Agent" })).toBeTruthy();
  });

  it("places a test call from an active agent and shows its status from the call log", async () => {
    const agent = makeAgent({ id: 7, vapi_assistant_id: "asst_1" });
    const account = fakeAccount([agent], {
      "POST /api/trigger-call": { success: true, callId: "sim_call_1" },
      "GET /api/call-logs?limit=20": {
        logs: [
          {
            id: 1,
            user_id: "user-1",
            call_id: "sim_call_1",
            phone_number: "+15125550199",
            start_time: "2026-03-01T15:00:00.000Z",
            duration: 0,
            status: "queued",
            summary: null,
            ended_reason: null,
            direction: "outbound",
            agent_id: 7,
            recording_url: null,
          },
        ],
        nextCursor: null,
      },
    });
    await renderScreen();
    const input = await screen.findByLabelText(AGENT_TEXT.testCallNumberLabel);
    fireEvent.change(input, { target: { value: "12" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.testCallButton })));
    expect(screen.getByText(AGENT_API_TEXT.invalidPhone)).toBeTruthy();
    expect(account.calls.some((c) => c.path === "/api/trigger-call")).toBe(false);

    fireEvent.change(input, { target: { value: "(512) 555-0199" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.testCallButton })));
    expect(await screen.findByText(AGENT_TEXT.testCallStarted)).toBeTruthy();
    expect(account.calls.find((c) => c.path === "/api/trigger-call")?.body).toEqual({ phoneNumber: "+15125550199", agentId: 7 });
    const latest = await screen.findByTestId("latest-test-call");
    await waitFor(() => expect(within(latest).getByText("queued")).toBeTruthy());
    expect(within(latest).getByText("+1(512) 555-0199")).toBeTruthy();
  });

  it("a test call marks the cached Call Logs pages stale, so that screen shows the new call when opened", async () => {
    fakeAccount([makeAgent({ id: 7, vapi_assistant_id: "asst_1" })], {
      "POST /api/trigger-call": { success: true, callId: "sim_call_3" },
      "GET /api/call-logs?limit=20": { logs: [], nextCursor: null },
    });
    const { queryClient } = await renderWithApp(<AgentsPage userId="user-1" />);
    // Call Logs was visited a moment ago: its pages are cached and fresh.
    queryClient.setQueryData(callLogKeys.pages, { pages: [{ logs: [], nextCursor: null }], pageParams: [null] });
    fireEvent.change(await screen.findByLabelText(AGENT_TEXT.testCallNumberLabel), { target: { value: "+15125550100" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.testCallButton })));
    expect(await screen.findByText(AGENT_TEXT.testCallStarted)).toBeTruthy();
    await waitFor(() => expect(queryClient.getQueryState(callLogKeys.pages)?.isInvalidated).toBe(true));
  });

  it("polls call logs and usage stats every 5 s for 30 s after a test call, then stops", async () => {
    const agent = makeAgent({ id: 7, vapi_assistant_id: "asst_1" });
    const account = fakeAccount([agent], {
      "POST /api/trigger-call": { success: true, callId: "sim_call_2" },
      "GET /api/call-logs?limit=20": { logs: [], nextCursor: null },
    });
    await renderScreen();
    fireEvent.change(await screen.findByLabelText(AGENT_TEXT.testCallNumberLabel), { target: { value: "+15125550100" } });
    // Fake clocks that still move on their own, so the library's own waiting keeps working.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.testCallButton })));
    await screen.findByTestId("latest-test-call");
    const count = (path: string) => account.calls.filter((c) => c.method === "GET" && c.path === path).length;
    await waitFor(() => expect(count("/api/call-logs?limit=20")).toBeGreaterThan(0));
    const logsAtStart = count("/api/call-logs?limit=20");
    const usageAtStart = count("/api/usage-stats");

    const ticks = TEST_CALL_POLL.durationMs / TEST_CALL_POLL.intervalMs;
    for (let i = 0; i < ticks; i++) await act(() => vi.advanceTimersByTimeAsync(TEST_CALL_POLL.intervalMs));
    const logsPolled = count("/api/call-logs?limit=20") - logsAtStart;
    const usagePolled = count("/api/usage-stats") - usageAtStart;
    // One fetch per 5 s within the 30 s window (the last tick may fall on either side of its end).
    expect(logsPolled).toBeGreaterThanOrEqual(ticks - 1);
    expect(logsPolled).toBeLessThanOrEqual(ticks);
    expect(usagePolled).toBeGreaterThanOrEqual(ticks - 1);
    expect(usagePolled).toBeLessThanOrEqual(ticks);

    // After the window nothing more is fetched.
    const logsAfter = count("/api/call-logs?limit=20");
    const usageAfter = count("/api/usage-stats");
    for (let i = 0; i < 4; i++) await act(() => vi.advanceTimersByTimeAsync(TEST_CALL_POLL.intervalMs));
    expect(count("/api/call-logs?limit=20")).toBe(logsAfter);
    expect(count("/api/usage-stats")).toBe(usageAfter);
  });
});
