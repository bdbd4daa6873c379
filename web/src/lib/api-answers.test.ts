// The request helper's answer types come from shared/schemas/answers.ts, by method and URL. These
// cases are checked by `npm run typecheck` (each `@ts-expect-error` fails the check if its line
// compiles); the runtime test only shows the file is part of the web project.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AgentResponse } from "@shared/schemas/agents";
import type { ApiAnswer } from "@shared/schemas/answers";
import type { CallLogsResponse } from "@shared/schemas/call-logs";
import type { CountResponse, CallLogTotalResponse } from "@shared/schemas/counts";
import { apiJson } from "./api";

// Never called: only their types are checked.
async function reads(id: string, params: URLSearchParams) {
  const page = await apiJson("GET", `/api/call-logs?${params}`);
  expectTypeOf(page).toEqualTypeOf<CallLogsResponse>();
  expectTypeOf(page.nextCursor).toEqualTypeOf<string | null>();
  // @ts-expect-error a field the answer does not have fails the check
  void page.next_cursor;

  // A template literal fills the ":id" of "GET /api/agents/:id".
  expectTypeOf(await apiJson("GET", `/api/agents/${id}`)).toEqualTypeOf<AgentResponse>();
  // A path without parameters wins over a pattern that also matches.
  expectTypeOf<ApiAnswer<"GET", "/api/call-logs/count?x=1">>().toEqualTypeOf<CallLogTotalResponse>();
  expectTypeOf<ApiAnswer<"GET", "/api/aircall/call-count">>().toEqualTypeOf<CountResponse>();
}

async function refusals(url: string) {
  // @ts-expect-error a URL the map does not name
  await apiJson("GET", "/api/no-such-thing");
  // @ts-expect-error a method the path is not answered for
  await apiJson("DELETE", "/api/call-logs");
  // @ts-expect-error a URL of unknown shape: the answer's type could not be known
  await apiJson("GET", url);
  // @ts-expect-error no caller names the answer's type by hand
  await apiJson<{ logs: never[] }>("GET", "/api/call-logs");
}

describe("apiJson's answer types", () => {
  it("are checked by the type checker, not at run time", () => {
    expect([reads, refusals]).toHaveLength(2);
  });
});
