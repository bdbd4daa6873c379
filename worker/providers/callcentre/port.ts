// Call-centre port (Aircall): shaped by what the dashboard counts, not by Aircall's API.
import { SIMULATED_CALL_SCENARIOS } from "@shared/schemas/local-tools";

/** One call-centre call as the provider last described it; times are ISO-8601 UTC. */
export type CentreCall = {
  /** The provider's call id (Aircall ids are integers; kept as text). */
  id: string;
  direction: "inbound" | "outbound";
  /** The provider's status: Aircall says 'initial', 'answered' or 'done'. */
  status: string;
  /** Null when the provider did not say when the call started (then the event time stands in). */
  startedAt: string | null;
  answeredAt: string | null;
  endedAt: string | null;
  /** Seconds; null when not reported. */
  durationSeconds: number | null;
  /** The staff member on the call; null on missed and voicemail calls. */
  userName: string | null;
  /** The line's name (for the stores, the names of docs/product/README.md#records, trailing dots included). */
  numberName: string | null;
  /** Whom the call was transferred to (user, team or line name); null when not transferred. */
  transferredTo: string | null;
};

/** A window of call start times, [from, to) in UTC. */
export type CallWindow = { from: Date; to: Date };

export type CentreCallPage = {
  calls: CentreCall[];
  page: number;
  /** Calls in the whole window, as the provider counts them. */
  total: number;
  hasMore: boolean;
};

/** A webhook delivery after authentication and parsing. */
export type CentreEvent =
  | {
      kind: "call";
      /** Names the delivery once: retries of the same event carry the same id. */
      eventId: string;
      eventType: string;
      /** When the provider produced the event (ISO-8601 UTC). */
      occurredAt: string;
      call: CentreCall;
    }
  /** Authentic, but of a type the product does not use: acknowledged so the provider does not retry. */
  | { kind: "ignored"; eventType: string };

/** Local development only: plays a call's events through the webhook route. */
export { SIMULATED_CALL_SCENARIOS };
export type SimulatedCallScenario = (typeof SIMULATED_CALL_SCENARIOS)[number];
export interface CallCentreSimulator {
  simulate(input: { scenario: SimulatedCallScenario; numberName: string; userName: string }): Promise<{ callId: string; deliveries: { event: string; status: number }[] }>;
}

export interface CallCentrePort {
  readonly kind: "local" | "aircall";
  /**
   * One page of the calls that started in the window, oldest first. Pages are numbered from 1 and
   * stay stable while the window lies in the past, so a backfill can resume at any page.
   */
  listCalls(window: CallWindow, page: number): Promise<CentreCallPage>;
  /**
   * Authenticates and parses one webhook delivery. Throws the API's 401 (forged or missing token)
   * or 400 (malformed) error before anything is written.
   */
  readEvent(headers: Headers, rawBody: string, token: string | null, now: Date): Promise<CentreEvent>;
  /** The local simulator; null for the real adapter. */
  readonly simulator: CallCentreSimulator | null;
}
