// The loaders that start a page's first read as soon as the session is known (decision 006): they
// ask for exactly what the page's own query asks for, and the page's query joins that request.
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentKeys, agentsQueryOptions } from "@web/api/agents";
import { callLogKeys, callLogsQueryOptions, CALL_LOGS_PAGE_SIZE } from "@web/api/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { Route as AgentSettingsRoute } from "../routes/_app/agent-settings";
import { Route as CallLogsRoute } from "../routes/_app/call-logs";

afterEach(() => vi.unstubAllGlobals());

type Loader = (ctx: unknown) => unknown;
const load = (route: { options: { loader?: unknown } }, context: object) => (route.options.loader as Loader)({ context });

describe("route loaders", () => {
  it("/call-logs asks for the first page of calls once, and the page's query gets that answer", async () => {
    const page = { logs: [], nextCursor: null };
    const fetchMock = vi.fn(async () => Response.json(page));
    vi.stubGlobal("fetch", fetchMock);
    const queryClient = createQueryClient();
    load(CallLogsRoute, { queryClient, user: { id: "u1" } });
    expect(queryClient.getQueryState(callLogKeys.pages)?.fetchStatus).toBe("fetching");
    // What useCallLogs does when the page mounts: it waits for the same request.
    const data = await queryClient.fetchInfiniteQuery(callLogsQueryOptions());
    expect(data.pages).toEqual([page]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe(`/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`);
  });

  it("/agent-settings asks for the signed-in user's agent list under the key the page reads", async () => {
    const list = { agents: [] };
    const fetchMock = vi.fn(async () => Response.json(list));
    vi.stubGlobal("fetch", fetchMock);
    const queryClient = createQueryClient();
    load(AgentSettingsRoute, { queryClient, user: { id: "u1" } });
    expect(queryClient.getQueryState(agentKeys.list("u1"))?.fetchStatus).toBe("fetching");
    expect(await queryClient.ensureQueryData(agentsQueryOptions("u1"))).toEqual(list);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe("/api/agents");
  });
});
