// The Aircall adapter against the Aircall stand-in over real HTTP (Basic auth, /v1/calls paging,
// 429 with Retry-After, Aircall's error JSON).
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { aircallCall, standinCompany } from "../../test/aircall";
import { AircallCallCentre, rateLimitWaitMs } from "./aircall";

const T0 = Date.UTC(2026, 2, 2, 14, 0, 0) / 1000;
const window = { from: new Date(T0 * 1000), to: new Date((T0 + 86_400) * 1000) };

function adapter(company: ReturnType<typeof standinCompany>, over: Partial<ConstructorParameters<typeof AircallCallCentre>[0]> = {}) {
  const waits: number[] = [];
  const a = new AircallCallCentre({
    apiId: company.apiId,
    apiToken: company.apiToken,
    baseUrl: company.baseUrl,
    sleep: async (ms) => void waits.push(ms),
    ...over,
  });
  return { a, waits };
}

async function failure(p: Promise<unknown>) {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe("AircallCallCentre.listCalls", () => {
  it("reads a window page by page with Basic auth, oldest first, mapped to the port's calls", async () => {
    const company = standinCompany();
    // 120 calls in the window (3 pages of 50), one just before and one at its end (excluded: the window is half-open).
    const inWindow = Array.from({ length: 120 }, (_, i) => aircallCall(9000 + i, T0 + 60 * (120 - i)));
    await company.putCalls([...inWindow, aircallCall(8000, T0 - 1), aircallCall(8001, T0 + 86_400)]);
    const { a } = adapter(company);

    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await a.listCalls(window, page));
    expect(pages.map((p) => [p.page, p.calls.length, p.total, p.hasMore])).toEqual([
      [1, 50, 120, true],
      [2, 50, 120, true],
      [3, 20, 120, false],
    ]);
    const ids = pages.flatMap((p) => p.calls.map((c) => c.id));
    expect(new Set(ids).size).toBe(120);
    expect(ids).not.toContain("8000");
    expect(ids).not.toContain("8001");
    // Ascending start times across pages.
    const starts = pages.flatMap((p) => p.calls.map((c) => c.startedAt!));
    expect([...starts].sort()).toEqual(starts);
    expect(pages[0].calls[0]).toEqual({
      id: "9119",
      direction: "inbound",
      status: "done",
      startedAt: new Date((T0 + 60) * 1000).toISOString(),
      answeredAt: new Date((T0 + 70) * 1000).toISOString(),
      endedAt: new Date((T0 + 250) * 1000).toISOString(),
      durationSeconds: 190,
      userName: "Dana Reyes",
      numberName: "Miami",
      transferredTo: null,
    });

    const requests = await company.requests();
    expect(requests.map((r) => r.query)).toEqual(
      [1, 2, 3].map((page) => ({ from: String(T0), to: String(T0 + 86_399), order: "asc", per_page: "50", page: String(page) })),
    );
  });

  it("is refused by the stand-in with the wrong token, as a provider error", async () => {
    const company = standinCompany();
    const { a } = adapter(company, { apiToken: "wrong-token" });
    const e = await failure(a.listCalls(window, 1));
    expect(e.status).toBe(502);
    expect(e.code).toBe("provider_error");
    expect(e.message).toBe("Aircall: 401 Unauthorized: Check your API ID and API token");
  });

  it("waits as long as a 429's Retry-After says, then succeeds", async () => {
    const company = standinCompany();
    await company.putCalls([aircallCall(7001, T0 + 5)]);
    await company.queueFaults([
      { status: 429, headers: { "retry-after": "2" } },
      { status: 429, headers: { "retry-after": "1" } },
    ]);
    const { a, waits } = adapter(company);
    const page = await a.listCalls(window, 1);
    expect(page.calls.map((c) => c.id)).toEqual(["7001"]);
    expect(waits).toEqual([2000, 1000]);
    expect((await company.requests()).map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it("gives up after its bounded retries, or at once when the wait is too long", async () => {
    const company = standinCompany();
    await company.queueFaults(Array.from({ length: 3 }, () => ({ status: 429, headers: { "retry-after": "1" } })));
    const { a, waits } = adapter(company, { maxRetries: 2 });
    const e = await failure(a.listCalls(window, 1));
    expect(e.message).toBe("Aircall: 429 rate limited (retry after 1 s)");
    expect(waits).toEqual([1000, 1000]);

    await company.queueFaults([{ status: 429, headers: { "retry-after": "3600" } }]);
    const long = adapter(company);
    expect((await failure(long.a.listCalls(window, 1))).message).toBe("Aircall: 429 rate limited (retry after 3600 s)");
    expect(long.waits).toEqual([]);
  });

  it("turns a 500 into a provider error with Aircall's message, without retrying", async () => {
    const company = standinCompany();
    await company.queueFaults([{ status: 500, json: { error: "Internal Server Error", troubleshoot: "Try again later" } }]);
    const { a, waits } = adapter(company);
    const e = await failure(a.listCalls(window, 1));
    expect(e.status).toBe(502);
    expect(e.message).toBe("Aircall: 500 Internal Server Error: Try again later");
    expect(waits).toEqual([]);
    expect((await company.requests()).length).toBe(1);
  });
});

describe("rateLimitWaitMs", () => {
  it("reads Retry-After in seconds or as a date, else Aircall's reset time, else one second", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(rateLimitWaitMs(new Headers({ "retry-after": "7" }), now)).toBe(7000);
    expect(rateLimitWaitMs(new Headers({ "retry-after": new Date(now + 4000).toUTCString() }), now)).toBe(4000);
    expect(rateLimitWaitMs(new Headers({ "x-aircallapi-reset": String(now / 1000 + 30) }), now)).toBe(30_000);
    expect(rateLimitWaitMs(new Headers(), now)).toBe(1000);
  });
});
