// docs/product/api.md#dashboard-counts: a cached query GETs the first element of its query key. Fetchers are explicit, so this
// holds because every key factory puts the URL first; checked here for every query of the SPA.
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentsQueryOptions } from "@web/api/agents";
import { productsQueryOptions } from "@web/api/billing";
import { callLogsQueryOptions, recentCallsQueryOptions } from "@web/api/call-logs";
import { myNumbersQueryOptions } from "@web/api/phone-numbers";
import { usageStatsQueryOptions } from "@web/api/usage-stats";
import {
  aircallOptionsQueryOptions,
  aircallQueries,
  appointmentOptionsQueryOptions,
  appointmentQueries,
  callLogCountQueries,
  dailyReportsQueryOptions,
  leadSummaryQueryOptions,
} from "@web/features/dashboard/api/dashboard";
import { voicesQueryOptions } from "@web/features/agents/api/get-voices";
import { callDetailQueryOptions } from "@web/features/call-logs/api/get-call-detail";
import { mailboxQueryOptions } from "@web/features/mailbox/api/mailbox";
import { reportMailQueryOptions } from "@web/features/settings/api/report-mail";
import { apiKeysQueryOptions } from "@web/features/settings/api/api-keys";
import { availableNumbersQueryOptions } from "@web/features/phone-numbers/api/get-available-numbers";
import { phoneLimitQueryOptions } from "@web/features/phone-numbers/api/get-phone-limit";
import { currentUserQueryOptions } from "@web/lib/auth/current-user";
import {
  adminPhoneLimitQueryOptions,
  adminStatsQueryOptions,
  adminUsersQueryOptions,
  auditLogQueryOptions,
  platformNumbersQueryOptions,
} from "@web/features/admin/api/admin";

type AnyOptions = { queryKey: readonly unknown[]; queryFn?: unknown };

const QUERIES: [string, AnyOptions][] = [
  ["agents", agentsQueryOptions("user-1")],
  ["plans", productsQueryOptions()],
  ["recent calls", recentCallsQueryOptions()],
  ["my numbers", myNumbersQueryOptions()],
  ["usage stats", usageStatsQueryOptions()],
  ["voices", voicesQueryOptions()],
  ["call detail", callDetailQueryOptions("abc-123")],
  ["mailbox", mailboxQueryOptions("a+b@store.example")],
  ["report mail", reportMailQueryOptions()],
  ["api keys", apiKeysQueryOptions()],
  ["available numbers", availableNumbersQueryOptions("305")],
  ["phone limit", phoneLimitQueryOptions()],
  ["current user", currentUserQueryOptions()],
  ["admin stats", adminStatsQueryOptions()],
  ["admin numbers", platformNumbersQueryOptions()],
  ["admin phone limit", adminPhoneLimitQueryOptions()],
  ...callLogCountQueries({ startDate: "2026-03-01", endDate: "2026-03-02", agent: "asst-1", callType: "Both" }, 1).map(
    (o, i): [string, AnyOptions] => [`dashboard call-log count ${i}`, o],
  ),
  ...appointmentQueries({ startDate: "2026-03-01", endDate: "2026-03-02", store: "TYLER" }, 1).map((o, i): [string, AnyOptions] => [`dashboard appointment count ${i}`, o]),
  ...aircallQueries({ startDate: "2026-03-01", endDate: "2026-03-02", userName: "Bob" }, 1).map((o, i): [string, AnyOptions] => [`dashboard aircall count ${i}`, o]),
  ["dashboard lead summary", leadSummaryQueryOptions({ startDate: "2026-03-01", endDate: "2026-03-02" }, 1)],
  ["dashboard appointment options", appointmentOptionsQueryOptions(0)],
  ["dashboard aircall options", aircallOptionsQueryOptions(0)],
  ["dashboard daily reports", dailyReportsQueryOptions({ startDate: "2026-03-01", endDate: "2026-03-02", store: "TYLER" }, 0)],
];

function recordFetches() {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      return Response.json({});
    }),
  );
  return urls;
}

const context = (queryKey: readonly unknown[], pageParam?: unknown) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined, pageParam, direction: "forward", client: undefined }) as never;

afterEach(() => vi.unstubAllGlobals());

describe("query keys", () => {
  it.each(QUERIES)("%s: the fetcher GETs the key's first element", async (_, options) => {
    const urls = recordFetches();
    await (options.queryFn as (ctx: never) => Promise<unknown>)(context(options.queryKey));
    expect(urls).toEqual([options.queryKey[0]]);
  });

  it("call-log pages: the key's first element is the path each page's URL adds its keyset to", async () => {
    const urls = recordFetches();
    const options = callLogsQueryOptions();
    await (options.queryFn as (ctx: never) => Promise<unknown>)(context(options.queryKey, "cursor-1"));
    expect(urls).toEqual([`${options.queryKey[0]}?limit=50&cursor=cursor-1`]);
  });

  it("admin user and audit pages: the key's first element is the path each page's URL adds its query to", async () => {
    const urls = recordFetches();
    const users = adminUsersQueryOptions("acme");
    await (users.queryFn as (ctx: never) => Promise<unknown>)(context(users.queryKey, "c1"));
    const audit = auditLogQueryOptions();
    await (audit.queryFn as (ctx: never) => Promise<unknown>)(context(audit.queryKey, 7));
    expect(urls).toEqual([`${users.queryKey[0]}?limit=25&search=acme&cursor=c1`, `${audit.queryKey[0]}?limit=20&before=7`]);
  });
});
