import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiErrorBody } from "@shared/api-error";
import { ApiError, apiGetAllAtOnce, apiJson, apiRequest, currentBookmarks, errorMessage, readErrorBody, resetBookmarks, serverMessage, setAccessToken } from "./api";

type Call = { url: string; init: RequestInit };

function stubFetch(response: () => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return response();
    }),
  );
  return calls;
}

const headersOf = (call: Call) => call.init.headers as Record<string, string>;

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

beforeEach(() => {
  setAccessToken(null);
  resetBookmarks();
});
afterEach(() => vi.unstubAllGlobals());

describe("apiRequest", () => {
  it("sends the session's access token as a bearer and always includes credentials", async () => {
    const calls = stubFetch(() => Response.json({ ok: true }));
    setAccessToken("token-123");
    await apiRequest("GET", "/api/agents");
    expect(headersOf(calls[0]).Authorization).toBe("Bearer token-123");
    expect(calls[0].init.credentials).toBe("include");
    expect(calls[0].init.method).toBe("GET");
  });

  it("tolerates a missing session by sending an empty bearer", async () => {
    const calls = stubFetch(() => Response.json({}));
    await apiRequest("GET", "/api/agents");
    expect(headersOf(calls[0]).Authorization).toBe("Bearer ");
  });

  it("sets the JSON content type only when a body is sent", async () => {
    const calls = stubFetch(() => Response.json({}));
    await apiRequest("POST", "/api/trigger-call", {
      phoneNumber: "+13055550123",
    });
    await apiRequest("DELETE", "/api/agents/7");
    expect(headersOf(calls[0])["Content-Type"]).toBe("application/json");
    expect(calls[0].init.body).toBe(JSON.stringify({ phoneNumber: "+13055550123" }));
    expect(headersOf(calls[1])).not.toHaveProperty("Content-Type");
    expect(calls[1].init.body).toBeUndefined();
  });

  it("throws an ApiError whose message is '<status>: <body text>', with the status and the parsed body", async () => {
    const body = {
      error: "Agent not found",
      code: "not_found",
      requestId: "r1",
    };
    stubFetch(
      () =>
        new Response(JSON.stringify(body), {
          status: 404,
          statusText: "Not Found",
        }),
    );
    const err = await failureOf(apiRequest("GET", "/api/agents/9"));
    expect(err.message).toBe(`404: ${JSON.stringify(body)}`);
    expect(err.status).toBe(404);
    expect(err.body).toEqual(body);
  });

  it("uses the status text when the body is empty, and has no parsed body then", async () => {
    stubFetch(() => new Response(null, { status: 503, statusText: "Service Unavailable" }));
    const err = await failureOf(apiRequest("GET", "/api/agents"));
    expect(err.message).toBe("503: Service Unavailable");
    expect(err.body).toBeNull();
  });

  it("throws on 401 like on any other failure", async () => {
    stubFetch(
      () =>
        new Response('{"error":"Sign in required","code":"unauthorized"}', {
          status: 401,
          statusText: "Unauthorized",
        }),
    );
    const err = await failureOf(apiJson("GET", "/api/profile"));
    expect(err.message).toBe('401: {"error":"Sign in required","code":"unauthorized"}');
    expect(err.status).toBe(401);
  });
});

describe("errorMessage and serverMessage", () => {
  const apiError = (status: number, text: string) => new ApiError(status, "Status Text", text);

  it("show the server's error field, a plain-text body, or the fallback", () => {
    expect(errorMessage(apiError(409, '{"error":"That email is already in use","code":"conflict"}'), "Update failed")).toBe(
      "That email is already in use",
    );
    expect(errorMessage(apiError(500, "upstream timed out"), "Update failed")).toBe("upstream timed out");
    expect(errorMessage(apiError(502, "<html>Bad gateway</html>"), "Update failed")).toBe("Update failed");
    expect(errorMessage(new Error("Invalid login credentials"), "Failed to log in")).toBe("Invalid login credentials");
    expect(errorMessage("not an error", "Failed to log in")).toBe("Failed to log in");
  });

  it("serverMessage is only ever the server's", () => {
    expect(serverMessage(apiError(400, '{"error":"Name is required","code":"validation_error","field":"name"}'))).toBe("Name is required");
    expect(serverMessage(new Error("Failed to fetch"))).toBeUndefined();
    expect(serverMessage(apiError(500, '{"unexpected":true}'))).toBeUndefined();
  });
});

describe("readErrorBody", () => {
  // Values near the shape: right and wrong types for every field, extra fields, arrays, null.
  const anyValue = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean());
  const issue = fc.oneof(fc.record({ field: anyValue, message: anyValue }), anyValue);
  const candidate = fc.oneof(
    fc.record(
      {
        error: anyValue,
        code: anyValue,
        field: anyValue,
        requestId: anyValue,
        issues: fc.oneof(fc.array(issue, { maxLength: 3 }), anyValue),
        limit: anyValue,
      },
      { requiredKeys: [] },
    ),
    fc.array(anyValue, { maxLength: 2 }),
    anyValue,
  );

  it("accepts exactly what the shared zod schema accepts", () => {
    fc.assert(
      fc.property(candidate, (value) => {
        expect(readErrorBody(value) !== null).toBe(apiErrorBody.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the fields a code documents beyond the common ones", () => {
    const body = {
      error: "Limit reached",
      code: "agent_limit_reached",
      limit: 3,
      issues: [{ field: "name", message: "taken" }],
    };
    expect(readErrorBody(body)).toEqual(body);
    expect(readErrorBody({ error: "x" })).toBeNull();
    expect(
      readErrorBody({
        error: "x",
        code: "y",
        issues: [{ field: 1, message: "m" }],
      }),
    ).toBeNull();
  });
});

describe("reads start in their own task", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lets the browser go first (scheduler.yield) before each read's fetch, not before a write's", async () => {
    const order: string[] = [];
    vi.stubGlobal("scheduler", {
      yield: async () => {
        order.push("yield");
      },
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        order.push(`fetch ${url}`);
        return new Response("{}", { status: 200 });
      }),
    );
    await apiRequest("GET", "/api/a");
    await apiRequest("POST", "/api/b", {});
    expect(order).toEqual(["yield", "fetch /api/a", "fetch /api/b"]);
  });

  it("goes straight to fetch where the browser has no scheduler.yield", async () => {
    vi.stubGlobal("scheduler", undefined);
    const calls = stubFetch(() => new Response("{}", { status: 200 }));
    await apiRequest("GET", "/api/a");
    expect(calls.map((c) => c.url)).toEqual(["/api/a"]);
  });
});

describe("D1 bookmarks (read your own writes)", () => {
  const older = "00000000-00000010-00000000-00";
  const newer = "00000000-00000020-00000000-00";
  const answer = (bookmark?: string) => () => Response.json({}, { headers: bookmark ? { "x-d1-bookmark": bookmark } : {} });

  it("sends no bookmark before an answer carried one", async () => {
    const calls = stubFetch(answer());
    await apiRequest("GET", "/api/agents");
    expect(headersOf(calls[0])).not.toHaveProperty("x-d1-bookmark");
  });

  it("keeps the bookmark an answer carries and sends it with the next request", async () => {
    let next: string | undefined = `DB=${older}`;
    const calls = stubFetch(() => answer(next)());
    await apiRequest("POST", "/api/agents", { name: "Desk" });
    next = undefined;
    await apiRequest("GET", "/api/agents");
    expect(headersOf(calls[1])["x-d1-bookmark"]).toBe(`DB=${older}`);
    // and it survives a reload of the page
    expect(sessionStorage.getItem("d1-bookmarks")).toBe(`DB=${older}`);
  });

  it("keeps the newest bookmark per database when answers arrive out of order, a refusal's included", async () => {
    const replies = [`DB=${newer}`, `DB=${older},ACCOUNT_DB=${older}`];
    stubFetch(() => answer(replies.shift())());
    await apiRequest("GET", "/api/agents");
    await apiRequest("GET", "/api/call-logs");
    expect(currentBookmarks()).toEqual({ DB: newer, ACCOUNT_DB: older });
    vi.unstubAllGlobals();
    stubFetch(() => new Response("nope", { status: 409, headers: { "x-d1-bookmark": `ACCOUNT_DB=${newer}` } }));
    await failureOf(apiRequest("POST", "/api/agents", {}));
    expect(currentBookmarks()).toEqual({ DB: newer, ACCOUNT_DB: newer });
  });

  it("ignores a malformed bookmark header", async () => {
    stubFetch(answer("not a bookmark"));
    await apiRequest("GET", "/api/agents");
    expect(currentBookmarks()).toEqual({});
  });
});

describe("apiGetAllAtOnce (decision 064)", () => {
  const older = "00000000-00000010-00000000-00";
  const newer = "00000000-00000020-00000000-00";
  type Item = { status: number; headers?: Record<string, string>; body: string };
  /** The batch answers as `batch` says; any read sent alone answers { alone: <url> }. */
  function stubApi(batch: (body: { requests: string[] }) => Response) {
    const calls: Call[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        if (url === "/api/batch") return batch(JSON.parse(String(init.body)));
        return Response.json({ alone: url });
      }),
    );
    return calls;
  }
  const answered = (items: Item[]) => () => Response.json({ responses: items.map((i) => ({ headers: {}, ...i })) });

  it("sends the reads as one request with the token and bookmarks, and answers each from it", async () => {
    setAccessToken("token-123");
    const calls = stubApi(
      answered([
        { status: 200, body: JSON.stringify({ count: 1 }), headers: { "x-d1-bookmark": `DB=${older}` } },
        { status: 200, body: JSON.stringify({ count: 2 }), headers: { "x-d1-bookmark": `DB=${newer}` } },
      ]),
    );
    const answer = apiGetAllAtOnce(["/api/a?x=1", "/api/b"]);
    expect(calls).toHaveLength(1);
    expect(calls[0].init.method).toBe("POST");
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ requests: ["/api/a?x=1", "/api/b"] });
    expect(headersOf(calls[0]).Authorization).toBe("Bearer token-123");
    expect(await answer("/api/b")).toEqual({ count: 2 });
    expect(await answer("/api/a?x=1")).toEqual({ count: 1 });
    expect(calls).toHaveLength(1);
    expect(currentBookmarks()).toEqual({ DB: newer });
  });

  it("throws a carried refusal as the read alone would, and asks alone for what the batch could not carry", async () => {
    const calls = stubApi(
      answered([
        { status: 403, body: JSON.stringify({ error: "This account does not have access to this section", code: "forbidden" }) },
        { status: 413, body: "" },
      ]),
    );
    const answer = apiGetAllAtOnce(["/api/a", "/api/b"]);
    const refused = await failureOf(answer("/api/a"));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe('403: {"error":"This account does not have access to this section","code":"forbidden"}');
    expect(await answer("/api/b")).toEqual({ alone: "/api/b" });
    // A read asked for again is sent alone: the carried answer was used once.
    expect(await answer("/api/a")).toEqual({ alone: "/api/a" });
    expect(calls.map((c) => c.url)).toEqual(["/api/batch", "/api/b", "/api/a"]);
  });

  it("asks for every read alone when the batch fails or cannot be reached", async () => {
    const calls = stubApi(() => new Response("Not found", { status: 404 }));
    const answer = apiGetAllAtOnce(["/api/a", "/api/b"]);
    expect(await Promise.all([answer("/api/a"), answer("/api/b")])).toEqual([{ alone: "/api/a" }, { alone: "/api/b" }]);
    expect(calls.map((c) => c.url)).toEqual(["/api/batch", "/api/a", "/api/b"]);
    vi.unstubAllGlobals();
    const offline = stubApi(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(await apiGetAllAtOnce(["/api/c"])("/api/c")).toEqual({ alone: "/api/c" });
    expect(offline.map((c) => c.url)).toEqual(["/api/batch", "/api/c"]);
  });
});
