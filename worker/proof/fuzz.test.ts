// Fuzzed bodies and queries on every route (property-based with fast-check): whatever arrives, no
// answer is a 500, and every refusal of the input itself (400, 413, 415, 422) names the field. The
// caller holds every flag and the admin role, and webhooks and ingestion get their keys, so the
// generated input reaches each route's own validation rather than stopping at the door.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DEV_AIRCALL_WEBHOOK_TOKEN } from "../providers/callcentre/aircall-events";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { DEV_INGEST_API_KEY } from "../routes/ingest";
import { call, signUpAndSignIn } from "../test/helpers";
import { API_KEY_SCOPES } from "@shared/schemas/api-keys";
import { ROUTES } from "./routes";

const RUNS_PER_ROUTE = 40;

/** Names the routes read, so generated input often has the right keys with the wrong values. */
const KEYS = [
  "email", "password", "current_password", "newEmail", "username", "company", "data", "token", "type", "grant_type",
  "refresh_token", "redirect_to", "name", "agent_instructions", "business_description", "services", "voice_id", "store",
  "phoneNumber", "phoneNumberId", "agentId", "createInVapi", "assistantId", "customerNumber", "storeId", "startDate",
  "endDate", "dateFilterType", "agent", "callType", "bookedBy", "appointmentType", "userName", "numberName", "limit",
  "cursor", "country", "areaCode", "sms", "voice", "phoneNumberLimit", "records", "external_id", "message", "call",
  "resource", "event", "timestamp", "date", "id", "scenario",
];

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("", " ", "2026-13-45", "2026-11-20", "-1", "0", "1e309", "NaN", "+13055550100", "a@b", "x".repeat(5_000), "../../etc", "<script>", "'; drop table users; --"),
);
const value = fc.oneof({ weight: 3, arbitrary: scalar }, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom(...KEYS), scalar, { maxKeys: 4 }));
const body = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? "null") },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,2", "not json", "{\"email\":", "\u0000", "null", "[]", "1") },
);
const query = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), fc.oneof(scalar.map(String), fc.string()), { maxKeys: 5 });
const param = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.integer().map(String), fc.constantFrom("0", "-1", "999999999999", "call_x", "%00", ".."));

type Tally = { requests: number; errors500: number; refusedWithoutField: number; byStatus: Record<number, number> };
const tallyAll: Tally = { requests: 0, errors500: 0, refusedWithoutField: 0, byStatus: {} };
const tallyEdges: Tally = { requests: 0, errors500: 0, refusedWithoutField: 0, byStatus: {} };

/** A refusal of the input: the caller can mend it, so the answer says where. */
const INPUT_REFUSALS = new Set([400, 413, 415, 422]);

function namesField(body: Record<string, unknown>) {
  // The public API (/v1) names it inside its error object.
  const field = body.field ?? (body.error as { field?: unknown } | undefined)?.field;
  return typeof field === "string" && field.length > 0;
}

/** The caller's credential for a route: for the public API (/v1), an API key of the account, with every scope. */
async function credentialFor(access: string, accessToken: string) {
  if (access !== "key") return accessToken;
  const res = await call("/api/api-keys", { method: "POST", token: accessToken, json: { name: "Fuzz", scopes: [...API_KEY_SCOPES] } });
  expect(res.status).toBe(201);
  return res.body.secret as string;
}

describe("fuzzed input on every route", () => {
  for (const [route, access] of Object.entries(ROUTES)) {
    const [method, pathPattern] = route.split(" ");
    it(`${route}: no 500, refusals name the field`, { timeout: 120_000 }, async () => {
      // A fresh admin per route: a fuzzed logout or password change must not end the next route's session.
      const session = await signUpAndSignIn({ appMetadata: { is_admin: true, shopwindows_info: true, call_app: true } });
      const accessToken = await credentialFor(access, session.accessToken);
      await fc.assert(
        fc.asyncProperty(body, query, param, async (b, q, p) => {
          const path = pathPattern.replace(/:[a-zA-Z_]+/g, encodeURIComponent(p));
          const search = new URLSearchParams(q).toString();
          const headers: Record<string, string> = { "content-type": "application/json" };
          let raw = typeof b === "string" ? b : JSON.stringify(b);
          if (access === "secret") {
            headers["x-vapi-secret"] = DEV_VAPI_WEBHOOK_SECRET;
            headers["x-ingest-key"] = DEV_INGEST_API_KEY;
            if (typeof b === "object") raw = JSON.stringify({ ...b, token: DEV_AIRCALL_WEBHOOK_TOKEN });
          }
          const res = await call(`${path}${search ? `?${search}` : ""}`, {
            method,
            token: accessToken,
            headers,
            body: method === "GET" || method === "HEAD" ? undefined : raw,
          });
          tallyAll.requests += 1;
          tallyAll.byStatus[res.status] = (tallyAll.byStatus[res.status] ?? 0) + 1;
          if (res.status >= 500) tallyAll.errors500 += 1;
          const refusedWithoutField = INPUT_REFUSALS.has(res.status) && !namesField(res.body);
          if (refusedWithoutField) tallyAll.refusedWithoutField += 1;
          const what = `${method} ${path}?${search} body=${raw.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          expect(refusedWithoutField, what).toBe(false);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  }
});

/** Calendar edges: the first and last years a date field can spell, leap days, days that do not exist. */
const EDGE_DAYS = [
  "0000-01-01", "9999-12-31", "1999-12-31", "2000-01-01", "2000-02-29", "2099-12-31", "2100-01-01", "1900-02-29",
  "2023-02-29", "2026-04-31", "2026-00-10", "2026-13-01", "+02026-01-01", "2026-1-1", "0001-01-01", "1969-12-31",
];
/** Ids at their edges: zero, negative, past 2^53, past 64 bits, fractions, full-width digits, overlong. */
const EDGE_IDS = [
  "0", "-1", "9007199254740993", "99999999999999999999999", "1e3", "1.5", " 1", "１", "😀", "a".repeat(300), "%00", "call_x",
];
/** Emails at their edges: empty, blank, overlong, unicode, two @, a control character, upper case. */
const EDGE_EMAILS = [
  "", " ", "a@b", `${"x".repeat(300)}@example.com`, "ü@exämple.com", "😀@example.com", "a@b@c.com", "a\u0000@example.com",
  "A.B@EXAMPLE.COM", "a@example.com ", "@example.com", "a@",
];
/** A valid value of every other field the routes read, so the edge value is the only thing wrong. */
const VALID = {
  dateFilterType: "range", startDate: "2026-11-01", endDate: "2026-11-02", callType: "Both", direction: "inbound",
  store: "MIAMI", storeId: "MIAMI", limit: "10",
};

type EdgeCase = { path: string; query: Record<string, string>; body: Record<string, unknown> };

/**
 * The edge cases of one route: every edge day in each date field (each end alone, both ends, the
 * single `date`, a cursor), every edge id in each path parameter, every edge email in the query and
 * the body.
 */
function edgeCases(pathPattern: string): EdgeCase[] {
  const path = pathPattern.replace(/:[a-zA-Z_]+/g, "1");
  const cases: EdgeCase[] = [];
  for (const day of EDGE_DAYS) {
    for (const dates of [{ startDate: day }, { endDate: day }, { startDate: day, endDate: day }]) {
      const q = { ...VALID, ...dates };
      cases.push({ path, query: q, body: q });
    }
    const single = { ...VALID, date: day } as Record<string, string>;
    delete single.startDate;
    delete single.endDate;
    cases.push({ path, query: single, body: single });
    // A keyset cursor naming the day (the stored reports' list takes `YYYY-MM-DD~STORE`).
    cases.push({ path, query: { ...VALID, cursor: `${day}~` }, body: { ...VALID, cursor: `${day}~` } });
  }
  if (pathPattern.includes(":")) {
    for (const id of EDGE_IDS) cases.push({ path: pathPattern.replace(/:[a-zA-Z_]+/g, encodeURIComponent(id)), query: VALID, body: { ...VALID, id } });
  }
  for (const email of EDGE_EMAILS) cases.push({ path, query: { ...VALID, email }, body: { ...VALID, email, password: "Secret123", newEmail: email } });
  return cases;
}

describe("date, id and email edges on every route", () => {
  for (const [route, access] of Object.entries(ROUTES)) {
    const [method, pathPattern] = route.split(" ");
    it(`${route}: no 5xx at the edges, refusals name the field`, { timeout: 120_000 }, async () => {
      const session = await signUpAndSignIn({ appMetadata: { is_admin: true, shopwindows_info: true, call_app: true } });
      const accessToken = await credentialFor(access, session.accessToken);
      const failures: string[] = [];
      for (const edge of edgeCases(pathPattern)) {
        const search = new URLSearchParams(edge.query).toString();
        const headers: Record<string, string> = { "content-type": "application/json" };
        let body = edge.body;
        if (access === "secret") {
          headers["x-vapi-secret"] = DEV_VAPI_WEBHOOK_SECRET;
          headers["x-ingest-key"] = DEV_INGEST_API_KEY;
          body = { ...body, token: DEV_AIRCALL_WEBHOOK_TOKEN };
        }
        const res = await call(`${edge.path}?${search}`, {
          method,
          token: accessToken,
          headers,
          body: method === "GET" || method === "HEAD" ? undefined : JSON.stringify(body),
        });
        tallyEdges.requests += 1;
        tallyEdges.byStatus[res.status] = (tallyEdges.byStatus[res.status] ?? 0) + 1;
        if (res.status >= 500) tallyEdges.errors500 += 1;
        const refusedWithoutField = INPUT_REFUSALS.has(res.status) && !namesField(res.body);
        if (refusedWithoutField) tallyEdges.refusedWithoutField += 1;
        if (res.status >= 500 || refusedWithoutField) failures.push(`${method} ${edge.path}?${search} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    });
  }
});

afterAll(() => {
  const line = (name: string, t: Tally) =>
    `${name}: ${t.requests} requests over ${Object.keys(ROUTES).length} routes; answered 5xx ${t.errors500}; ` +
    `input refusals without a field ${t.refusedWithoutField}\n  statuses: ${Object.entries(t.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")}`;
  console.log(`\n${line("Fuzzed input", tallyAll)}\n${line("Date, id and email edges", tallyEdges)}`);
});
