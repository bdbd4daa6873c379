import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiRequest, defaultQueryFn, errorMessage, getQueryFn, setAccessToken } from "./api";

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

beforeEach(() => setAccessToken(null));
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
    await apiRequest("POST", "/api/trigger-call", { phoneNumber: "+13055550123" });
    await apiRequest("DELETE", "/api/agents/7");
    expect(headersOf(calls[0])["Content-Type"]).toBe("application/json");
    expect(calls[0].init.body).toBe(JSON.stringify({ phoneNumber: "+13055550123" }));
    expect(headersOf(calls[1])).not.toHaveProperty("Content-Type");
    expect(calls[1].init.body).toBeUndefined();
  });

  it("throws '<status>: <body text>' on a non-OK answer", async () => {
    stubFetch(() => new Response('{"error":"Agent not found"}', { status: 404, statusText: "Not Found" }));
    await expect(apiRequest("GET", "/api/agents/9")).rejects.toThrow('404: {"error":"Agent not found"}');
  });

  it("uses the status text when the body is empty", async () => {
    stubFetch(() => new Response(null, { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("GET", "/api/agents")).rejects.toThrow("503: Service Unavailable");
  });
});

describe("default query function", () => {
  it("GETs the first element of the query key with the bearer and reads JSON", async () => {
    const calls = stubFetch(() => Response.json({ count: 3 }));
    setAccessToken("abc");
    const data = await defaultQueryFn({ queryKey: ["/api/call-logs/count", { any: "thing" }], signal: new AbortController().signal } as never);
    expect(data).toEqual({ count: 3 });
    expect(calls[0].url).toBe("/api/call-logs/count");
    expect(headersOf(calls[0]).Authorization).toBe("Bearer abc");
    expect(calls[0].init.credentials).toBe("include");
  });

  it("throws on 401", async () => {
    stubFetch(() => new Response('{"error":"Sign in required"}', { status: 401, statusText: "Unauthorized" }));
    await expect(defaultQueryFn({ queryKey: ["/api/profile"], signal: new AbortController().signal } as never)).rejects.toThrow(
      '401: {"error":"Sign in required"}',
    );
  });

  it("can answer null on 401 when asked to", async () => {
    stubFetch(() => new Response("", { status: 401, statusText: "Unauthorized" }));
    const fn = getQueryFn({ on401: "returnNull" });
    await expect(fn({ queryKey: ["/api/profile"], signal: new AbortController().signal } as never)).resolves.toBeNull();
  });
});

describe("errorMessage", () => {
  it("shows the server's error field, the plain body, or the fallback", () => {
    expect(errorMessage(new Error('409: {"error":"That email is already in use","code":"conflict"}'), "Update failed")).toBe(
      "That email is already in use",
    );
    expect(errorMessage(new Error("500: upstream timed out"), "Update failed")).toBe("upstream timed out");
    expect(errorMessage(new Error("Invalid login credentials"), "Failed to log in")).toBe("Invalid login credentials");
    expect(errorMessage("not an error", "Failed to log in")).toBe("Failed to log in");
  });
});
