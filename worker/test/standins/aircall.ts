// Aircall REST stand-in for the call-centre adapter's tests: GET /v1/calls with Aircall's Basic
// auth (API ID : API token), from/to/order/per_page/page, answer { calls, meta } and Aircall's
// error JSON. Each API ID is its own company with its own calls, so test files stay independent.
// Test-only control under /__standin/companies/<apiId>: put calls, queue faults (e.g. a 429 with
// Retry-After, a 500) answered before the next real answers, and read the request log.
import type { StandinHandler, StandinRequest, StandinResponse } from "./server";

/** The API token every stand-in company answers to; tests import this (no I/O on import). */
export const AIRCALL_STANDIN = { apiToken: "standin-aircall-api-token" } as const;

type Json = Record<string, any>;
type Fault = { status: number; headers?: Record<string, string>; json?: unknown };
type Company = { calls: Json[]; faults: Fault[]; requests: { path: string; query: Record<string, string>; status: number }[] };

const aircallError = (status: number, error: string, troubleshoot: string): StandinResponse => ({ status, json: { error, troubleshoot } });

export async function aircallStandin(): Promise<StandinHandler> {
  const companies = new Map<string, Company>();
  const company = (apiId: string) => {
    let c = companies.get(apiId);
    if (!c) {
      c = { calls: [], faults: [], requests: [] };
      companies.set(apiId, c);
    }
    return c;
  };

  const apiIdOf = (req: StandinRequest): string | null => {
    const header = req.headers.authorization;
    if (typeof header !== "string" || !header.startsWith("Basic ")) return null;
    const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0 || decoded.slice(colon + 1) !== AIRCALL_STANDIN.apiToken) return null;
    return decoded.slice(0, colon);
  };

  const listCalls = (c: Company, req: StandinRequest): StandinResponse => {
    const q = req.query;
    const int = (name: string, fallback: number) => (q.get(name) === null ? fallback : Number(q.get(name)));
    const perPage = int("per_page", 20);
    const page = int("page", 1);
    const from = int("from", 0);
    const to = int("to", Number.MAX_SAFE_INTEGER);
    const order = q.get("order") ?? "asc";
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 50) return aircallError(400, "Invalid per_page", "per_page must be between 1 and 50");
    if (!Number.isInteger(page) || page < 1) return aircallError(400, "Invalid page", "page must be a positive integer");
    if (!Number.isInteger(from) || !Number.isInteger(to)) return aircallError(400, "Invalid date", "from and to are UNIX timestamps");
    if (order !== "asc" && order !== "desc") return aircallError(400, "Invalid order", "order is asc or desc");
    if (page * perPage > 10_000) return aircallError(400, "Too many results", "Use from/to to narrow the query");
    // `from` and `to` bound the creation time, both included, as Aircall documents.
    const matching = c.calls
      .filter((call) => call.started_at >= from && call.started_at <= to)
      .sort((a, b) => (order === "asc" ? 1 : -1) * (a.started_at - b.started_at || a.id - b.id));
    const calls = matching.slice((page - 1) * perPage, page * perPage);
    const last = page * perPage >= matching.length;
    const link = (p: number) => {
      const next = new URLSearchParams(q);
      next.set("page", String(p));
      return `https://api.aircall.io/v1/calls?${next}`;
    };
    return {
      json: {
        calls,
        meta: {
          total: matching.length,
          count: calls.length,
          current_page: page,
          per_page: perPage,
          next_page_link: last ? null : link(page + 1),
          previous_page_link: page > 1 ? link(page - 1) : null,
        },
      },
    };
  };

  return (req: StandinRequest): StandinResponse => {
    const control = /^\/__standin\/companies\/([^/]+)\/(calls|faults|requests)$/.exec(req.path);
    if (control) {
      const c = company(decodeURIComponent(control[1]));
      if (control[2] === "requests") return { json: { requests: c.requests } };
      if (req.method !== "POST") return aircallError(405, "Method not allowed", "");
      if (control[2] === "calls") c.calls = req.json().calls;
      else c.faults.push(...(req.json().faults as Fault[]));
      return { json: { ok: true } };
    }

    const apiId = apiIdOf(req);
    if (!apiId) return aircallError(401, "Unauthorized", "Check your API ID and API token");
    const c = company(apiId);
    const answer = (): StandinResponse => {
      const fault = c.faults.shift();
      if (fault) return { status: fault.status, headers: fault.headers, json: fault.json ?? { error: `Fault ${fault.status}`, troubleshoot: "Injected by the test" } };
      if (req.path === "/v1/calls" && req.method === "GET") return listCalls(c, req);
      return aircallError(404, "Not found", `No route for ${req.method} ${req.path}`);
    };
    const out = answer();
    c.requests.push({ path: req.path, query: Object.fromEntries(req.query), status: out.status ?? 200 });
    return out;
  };
}
