// The local tools' pages (/mailbox, /webhook-inbox) in production: 404 from the Worker, never the
// shell (the asset store is not even asked), as their APIs answer; outside production, the shell.
import { describe, expect, it } from "vitest";
import { LOCAL_TOOL_PAGES } from "@shared/local-tools";
import { call } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";

const SHELL_HTML = "<!doctype html><html><head><title>Voice Agent Ops</title></head><body><div id=\"root\"></div></body></html>";

/** An asset store answering the shell for every path, recording what it was asked for. */
function assetStore() {
  const asked: string[] = [];
  const ASSETS = {
    fetch: async (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      asked.push(path);
      return path.endsWith(".json") ? new Response("Not found", { status: 404 }) : new Response(SHELL_HTML, { headers: { "content-type": "text/html" } });
    },
  };
  return { ASSETS, asked };
}

const pagesOf = (page: string) => [page, `${page}/`, `${page}?email=a%40example.com&inbox=default`, `${page}/deeper`];

describe("the local tools' pages", () => {
  it("are /mailbox and /webhook-inbox", () => {
    expect([...LOCAL_TOOL_PAGES].sort()).toEqual(["/mailbox", "/webhook-inbox"]);
  });

  it("answer 404 in production, GET and HEAD, without the shell", async () => {
    for (const page of LOCAL_TOOL_PAGES) {
      for (const path of pagesOf(page)) {
        for (const method of ["GET", "HEAD"]) {
          const { ASSETS, asked } = assetStore();
          const res = await call(path, { method, bindings: { ...PRODUCTION_BINDINGS, ASSETS } });
          expect(res.status, `${method} ${path}`).toBe(404);
          expect(asked, `${method} ${path}`).toEqual([]);
          expect(res.headers.get("cache-control"), path).toBe("no-store");
          expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
        }
      }
    }
  });

  it("are the app's shell outside production", async () => {
    for (const page of LOCAL_TOOL_PAGES) {
      for (const path of pagesOf(page)) {
        const { ASSETS, asked } = assetStore();
        const res = await call(path, { bindings: { ASSETS } });
        expect(res.status, path).toBe(200);
        expect(asked[0], path).toBe("/");
      }
    }
  });

  it("leave every other page its shell in production, names that only start alike included", async () => {
    for (const path of ["/dashboard", "/auth", "/mailboxes", "/webhook-inboxes", "/settings"]) {
      const { ASSETS, asked } = assetStore();
      const res = await call(path, { bindings: { ...PRODUCTION_BINDINGS, ASSETS } });
      expect(res.status, path).toBe(200);
      expect(asked[0], path).toBe("/");
    }
  });
});
