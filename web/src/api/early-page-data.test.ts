import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@web/lib/query-client";
import { agentKeys } from "./agents";
import { CALL_LOGS_PAGE_SIZE, callLogKeys } from "./call-logs";
import { earlyRequestOf, prefetchPageData } from "./early-page-data";

afterEach(() => vi.unstubAllGlobals());

const session = { accessToken: "tok", userId: "u1" };

describe("earlyRequestOf", () => {
  it("names the URL and cache key each page's own query uses, trailing slash or not", () => {
    expect(earlyRequestOf("/call-logs", "u1")).toMatchObject({ path: `/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`, key: callLogKeys.pages });
    expect(earlyRequestOf("/call-logs/", null)).toMatchObject({ key: callLogKeys.pages });
    expect(earlyRequestOf("/agent-settings", "u1")).toMatchObject({ path: "/api/agents", key: agentKeys.list("u1") });
  });

  it("asks nothing for other pages, nor for the agents without a user id to key them by", () => {
    for (const path of ["/", "/auth", "/dashboard", "/admin", "/call-logs-x"]) expect(earlyRequestOf(path, "u1"), path).toBeNull();
    expect(earlyRequestOf("/agent-settings", null)).toBeNull();
  });
});

describe("prefetchPageData", () => {
  it("keeps the call log's first page where useCallLogs reads it, as its first and only page", async () => {
    const page = { logs: [{ id: 1 }], nextCursor: "c1" };
    const fetchMock = vi.fn(async () => Response.json(page));
    vi.stubGlobal("fetch", fetchMock);
    const client = createQueryClient();
    await prefetchPageData(client, "/call-logs", session);
    expect(fetchMock).toHaveBeenCalledWith(`/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`, { headers: { Authorization: "Bearer tok" } });
    expect(client.getQueryData(callLogKeys.pages)).toEqual({ pages: [page], pageParams: [null] });
  });

  it("keeps the agent list under the user's key", async () => {
    const list = { agents: [{ id: 7, name: "Miami" }] };
    vi.stubGlobal("fetch", vi.fn(async () => Response.json(list)));
    const client = createQueryClient();
    await prefetchPageData(client, "/agent-settings", session);
    expect(client.getQueryData(agentKeys.list("u1"))).toEqual(list);
  });

  it("leaves data the page already has, and keeps nothing on a refusal, a network failure or without a session", async () => {
    const client = createQueryClient();
    const own = { agents: [] };
    client.setQueryData(agentKeys.list("u1"), own);
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ agents: [{ id: 1 }] })));
    await prefetchPageData(client, "/agent-settings", session);
    expect(client.getQueryData(agentKeys.list("u1"))).toBe(own);

    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ error: "Unauthorized" }, { status: 401 })));
    await prefetchPageData(client, "/call-logs", session);
    expect(client.getQueryState(callLogKeys.pages)).toBeUndefined();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    await prefetchPageData(client, "/call-logs", session);
    expect(client.getQueryState(callLogKeys.pages)).toBeUndefined();

    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    await prefetchPageData(client, "/call-logs", null);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
