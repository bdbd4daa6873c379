// Local call centre: the default when no Aircall API credentials are set. The seed holds the local
// Aircall calls, so there is nothing remote to list; webhooks are read with Aircall's own protocol,
// and the simulator posts Aircall-shaped deliveries through the same webhook route.
import { AIRCALL_WEBHOOK_PATH, readAircallEvent, type AircallCallEvent } from "./aircall-events";
import type { CallCentrePort, CallCentreSimulator, CallWindow, CentreCallPage, CentreEvent, SimulatedCallScenario } from "./port";

export type LocalCallCentreOptions = {
  /** Origin of the current request; deliveries go to `<origin>/api/webhooks/aircall`. */
  origin: string;
  /** Put in each delivery's body, as Aircall puts the webhook's token. */
  webhookToken: string | null;
  /** Dispatches a request to the app in-process (the app is not imported here, to avoid a cycle). */
  deliver?: (request: Request) => Promise<Response>;
};

export class LocalCallCentre implements CallCentrePort {
  readonly kind = "local" as const;
  readonly simulator: CallCentreSimulator | null;

  constructor(private opts: LocalCallCentreOptions) {
    const deliver = opts.deliver;
    this.simulator = deliver ? { simulate: (input) => this.simulate(deliver, input) } : null;
  }

  async listCalls(_window: CallWindow, page: number): Promise<CentreCallPage> {
    return { calls: [], page, total: 0, hasMore: false };
  }

  readEvent(headers: Headers, rawBody: string, token: string | null, now: Date): Promise<CentreEvent> {
    return readAircallEvent(headers, rawBody, token, now);
  }

  /** Posts a just-finished call's events, in Aircall's order, and reports each answer. */
  private async simulate(
    deliver: (request: Request) => Promise<Response>,
    input: { scenario: SimulatedCallScenario; numberName: string; userName: string },
  ) {
    const nowS = Math.floor(Date.now() / 1000);
    // Above the seed's ids (1.8e9 + n), like Aircall's ever-growing integers.
    const id = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    const deliveries: { event: string; status: number }[] = [];
    for (const [event, at, data] of simulatedEvents(id, nowS, input)) {
      const res = await deliver(
        new Request(`${this.opts.origin}${AIRCALL_WEBHOOK_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ resource: "call", event, timestamp: at, token: this.opts.webhookToken ?? "", data }),
        }),
      );
      await res.body?.cancel();
      deliveries.push({ event, status: res.status });
    }
    return { callId: String(id), deliveries };
  }
}

/** The events Aircall sends for one call of the scenario, ending at `endS` (unix seconds). */
export function simulatedEvents(
  id: number,
  endS: number,
  input: { scenario: SimulatedCallScenario; numberName: string; userName: string },
): [AircallCallEvent, number, Record<string, unknown>][] {
  const { scenario } = input;
  const answered = scenario !== "missed" && scenario !== "voicemail";
  const talk = answered ? 95 + (id % 200) : scenario === "voicemail" ? 25 : 0;
  const ring = 12;
  const start = endS - ring - talk;
  const base = {
    id,
    direct_link: `https://api.aircall.io/v1/calls/${id}`,
    direction: scenario === "outbound" ? "outbound" : "inbound",
    started_at: start,
    answered_at: null as number | null,
    ended_at: null as number | null,
    duration: 0,
    raw_digits: "+1 305-555-0148",
    number: { id: 1000, name: input.numberName, digits: "+1 305-555-0100" },
    user: null as { id: number; name: string } | null,
    transferred_to: null as { id: number; name: string } | null,
    missed_call_reason: null as string | null,
    voicemail: null as string | null,
  };
  const user = { id: 7, name: input.userName };
  const events: [AircallCallEvent, number, Record<string, unknown>][] = [["call.created", start, { ...base, status: "initial" }]];
  if (answered) {
    const answeredAt = start + ring;
    events.push(["call.answered", answeredAt, { ...base, status: "answered", answered_at: answeredAt, user }]);
    const done = { ...base, status: "done", answered_at: answeredAt, ended_at: endS, duration: endS - start, user };
    if (scenario === "transferred") {
      // The call centre hands the caller to the store line the call came in on.
      const transferred_to = { id: 90, name: input.numberName };
      events.push(["call.transferred", answeredAt + 30, { ...base, status: "answered", answered_at: answeredAt, user, transferred_to }]);
      events.push(["call.ended", endS, { ...done, transferred_to }]);
    } else {
      events.push(["call.ended", endS, done]);
    }
  } else {
    const ended = { ...base, status: "done", ended_at: endS, duration: endS - start };
    if (scenario === "voicemail") events.push(["call.voicemail_left", endS, { ...ended, voicemail: `https://api.aircall.io/v1/calls/${id}/voicemail` }]);
    events.push(["call.ended", endS, { ...ended, missed_call_reason: scenario === "voicemail" ? "agents_did_not_answer" : "short_abandoned" }]);
  }
  return events;
}
