// Aircall test helpers: call objects in Aircall's wire shape, and one stand-in company per test.
import { inject } from "vitest";
import { AIRCALL_STANDIN } from "./standins/aircall";

export type AircallJson = Record<string, any>;

/** A finished, answered inbound call on the Miami line, as Aircall's API and webhooks send it. */
export function aircallCall(id: number, startedAt: number, over: AircallJson = {}): AircallJson {
  return {
    id,
    direct_link: `https://api.aircall.io/v1/calls/${id}`,
    direction: "inbound",
    status: "done",
    missed_call_reason: null,
    started_at: startedAt,
    answered_at: startedAt + 10,
    ended_at: startedAt + 190,
    duration: 190,
    raw_digits: "+1 305-555-0148",
    user: { id: 11, name: "Dana Reyes", email: "dana@example.com" },
    number: { id: 501, name: "Miami", digits: "+1 305-555-0100" },
    transferred_by: null,
    transferred_to: null,
    tags: [],
    ...over,
  };
}

export const aircallBaseUrl = () => inject("standins").aircall;

/** A fresh stand-in company (its own calls, faults and request log) and the settings to reach it. */
export function standinCompany() {
  const apiId = `api-${crypto.randomUUID()}`;
  const control = (what: string) => `${aircallBaseUrl()}/__standin/companies/${encodeURIComponent(apiId)}/${what}`;
  const post = async (what: string, body: unknown) => {
    const res = await fetch(control(what), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`stand-in ${what}: ${res.status}`);
  };
  return {
    apiId,
    apiToken: AIRCALL_STANDIN.apiToken,
    baseUrl: aircallBaseUrl(),
    /** Environment bindings that switch the call centre to the real adapter against this company. */
    bindings: { AIRCALL_API_ID: apiId, AIRCALL_API_TOKEN: AIRCALL_STANDIN.apiToken, AIRCALL_BASE_URL: aircallBaseUrl() },
    putCalls: (calls: AircallJson[]) => post("calls", { calls }),
    queueFaults: (faults: { status: number; headers?: Record<string, string>; json?: unknown }[]) => post("faults", { faults }),
    requests: async () => {
      const res = await fetch(control("requests"));
      return ((await res.json()) as { requests: { path: string; query: Record<string, string>; status: number }[] }).requests;
    },
  };
}
