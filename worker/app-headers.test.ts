import { describe, expect, inject, it } from "vitest";
import { call, signUpAndSignIn } from "./test/helpers";
import { firstScreenHtml } from "@shared/first-paint/first-screen";
import { AGENT_TEXT, CALL_LOG_TEXT, DASHBOARD_TEXT, NAV_TEXT } from "@shared/messages";
import { VAPI_RECORDING_ORIGIN } from "./content-sources";

/**
 * An asset store serving `shell` for a page and the build's JSON tables in `files` by path (any
 * other JSON file is not there: 404), recording every path asked for.
 */
function assetStore(shell: string, files: Record<string, unknown>) {
  const seen: string[] = [];
  const STORE = {
    fetch: async (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      seen.push(path);
      if (Object.hasOwn(files, path)) return Response.json(files[path]);
      if (path.endsWith(".json")) return new Response("Not found", { status: 404 });
      return new Response(shell, { headers: { "content-type": "text/html" } });
    },
  };
  return { STORE, seen };
}

// The asset store: a response fetched over HTTP, whose headers are immutable like the real binding's.
// It records what it was asked for.
const asked: string[] = [];
const ASSETS = {
  fetch: (input: RequestInfo | URL) => {
    asked.push(new URL(input instanceof Request ? input.url : input).pathname);
    return fetch(`${inject("standins").vapi}/__shell`);
  },
};

function directives(csp: string | null) {
  return Object.fromEntries((csp ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

/** The configuration script the Worker writes into every shell's head, and the shell without it. */
const CONFIG_SCRIPT = /<script type="application\/json" id="app-config">(.*?)<\/script>/;
function withoutConfig(body: unknown): { text: string; config: unknown } {
  const text = (body as { text: string }).text;
  const m = CONFIG_SCRIPT.exec(text);
  return { text: text.replace(CONFIG_SCRIPT, ""), config: m ? JSON.parse(m[1]) : null };
}

describe("page security headers follow the configuration", () => {
  it("serves pages through the Worker with the policy on the asset store's response", async () => {
    const res = await call("/dashboard", { bindings: { ASSETS } });
    const direct = await fetch(`${inject("standins").vapi}/__shell`);
    expect(res.status).toBe(direct.status);
    expect(res.body).toEqual(await direct.json());
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["media-src"]).toEqual(["'self'"]);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets the page play recordings from the voice platform's host when VAPI is configured", async () => {
    const res = await call("/call-logs", { bindings: { ASSETS, VAPI_PRIVATE_KEY: "k", VAPI_WEBHOOK_SECRET: "s" } });
    expect(directives(res.headers.get("content-security-policy"))["media-src"]).toEqual(["'self'", VAPI_RECORDING_ORIGIN]);
  });

  it("takes the recording hosts from RECORDING_ORIGINS, keeping only their origins", async () => {
    const res = await call("/call-logs", {
      bindings: { ASSETS, RECORDING_ORIGINS: "https://rec.example.com/path, not a url,https://cdn.example.net" },
    });
    expect(directives(res.headers.get("content-security-policy"))["media-src"]).toEqual([
      "'self'",
      "https://rec.example.com",
      "https://cdn.example.net",
    ]);
  });

  it("lets the auth client reach a custom Supabase domain", async () => {
    const res = await call("/auth", {
      bindings: { ASSETS, SUPABASE_URL: "https://auth.shop.example.com/", SUPABASE_ANON_KEY: "anon", SUPABASE_SERVICE_ROLE_KEY: "role" },
    });
    expect(directives(res.headers.get("content-security-policy"))["connect-src"]).toEqual([
      "'self'",
      "https://auth.shop.example.com",
    ]);
  });
});

describe("API answers are never shared between accounts by a cache", () => {
  it("marks the platform call list, which the browser may reuse for 30 s, as varying by Authorization", async () => {
    const { accessToken } = await signUpAndSignIn();
    const res = await call("/api/vapi/call-logs", { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=30");
    expect(res.headers.get("vary")).toMatch(/Authorization/i);
  });

  it("answers every other API call with no-store", async () => {
    const { accessToken } = await signUpAndSignIn();
    for (const path of ["/api/profile", "/api/twilio/my-numbers", "/api/health"]) {
      const res = await call(path, { token: accessToken });
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("vary"), path).toMatch(/Authorization/i);
    }
  });
});

describe("serving the SPA", () => {
  it("answers every screen path, /auth included, with the shell asked of the asset store at /", async () => {
    for (const path of ["/auth", "/auth?login=1", "/dashboard", "/admin", "/no-such-page/anywhere"]) {
      asked.length = 0;
      const res = await call(path, { bindings: { ASSETS } });
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
      expect(asked, path).toEqual(["/"]);
    }
  });

  it("answers a missing file, such as an old hashed bundle after a deploy, with 404 instead of the shell", async () => {
    for (const path of ["/assets/index-0ld4a5h.js", "/assets/app.css", "/robots.txt", "/old.webmanifest"]) {
      asked.length = 0;
      const res = await call(path, { bindings: { ASSETS } });
      expect(res.status, path).toBe(404);
      expect(asked, path).toEqual([]);
    }
  });

  it("paints a signed-in page's title from the HTML: the first screen written into the shell's root", async () => {
    const html = (root = "") =>
      `<!doctype html><html><head><title>Voice Agent Ops</title></head><body><div id="root">${root}</div><div id="other"></div></body></html>`;
    const SHELL = { fetch: async () => new Response(html(), { headers: { "content-type": "text/html" } }) };
    const pages = [
      ["/dashboard", { title: DASHBOARD_TEXT.pageTitle }],
      ["/call-logs/", { title: NAV_TEXT.callLogs, description: CALL_LOG_TEXT.intro }],
      ["/agent-settings?agent=3", { title: AGENT_TEXT.pageTitle, description: AGENT_TEXT.pageDescription }],
    ] as const;
    for (const [path, header] of pages) {
      const res = await call(path, { bindings: { ASSETS: SHELL } });
      expect(withoutConfig(res.body).text, path).toEqual(html(firstScreenHtml(header)));
      expect(res.status, path).toBe(200);
      expect(firstScreenHtml(header), path).toContain(`<h1 class="text-2xl font-semibold tracking-tight">${header.title}</h1>`);
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'self'");
    }
    // Signed out, flag-gated or unknown pages keep the empty shell: their title could mislead.
    for (const path of ["/auth", "/analytics", "/admin", "/daily-report", "/no-such-page", "/dashboard/extra"]) {
      const res = await call(path, { bindings: { ASSETS: SHELL } });
      expect(withoutConfig(res.body).text, path).toEqual(html());
    }
    const head = await call("/dashboard", { method: "HEAD", bindings: { ASSETS: SHELL } });
    expect(head.body).toEqual({});
  });

  it("preloads the page's own code from the build's table, written into the head, only files of the build", async () => {
    const html = (head = "", root = "") =>
      `<!doctype html><html><head><title>Voice Agent Ops</title>${head}</head><body><div id="root">${root}</div></body></html>`;
    const table = {
      "/auth": ["/assets/auth-1.js", "/assets/auth-shell-1.js"],
      "/call-logs": ["/assets/_app-1.js", "/assets/call-logs-1.js", '/assets/x.js"><script>alert(1)</script>', "https://evil.example/a.js", 7],
      "module:identity-client": ["/assets/identity-1.js", "/assets/tslib-1.js"],
    };
    const { STORE, seen } = assetStore(html(), { "/route-preloads.json": table });
    const link = (href: string) => `<link rel="modulepreload" crossorigin href="${href}">`;
    const auth = await call("/auth?login=1", { bindings: { ASSETS: STORE } });
    expect(withoutConfig(auth.body).text).toEqual(html(link("/assets/auth-1.js") + link("/assets/auth-shell-1.js")));
    // A signed-in page also preloads the identity library, which restores its session first.
    const logs = await call("/call-logs/", { bindings: { ASSETS: STORE } });
    expect(withoutConfig(logs.body).text).toEqual(
      html(
        link("/assets/identity-1.js") + link("/assets/tslib-1.js") + link("/assets/_app-1.js") + link("/assets/call-logs-1.js"),
        firstScreenHtml({ title: NAV_TEXT.callLogs, description: CALL_LOG_TEXT.intro }),
      ),
    );
    for (const path of ["/no-such-page", "/call-logs/extra"]) {
      expect(withoutConfig((await call(path, { bindings: { ASSETS: STORE } })).body).text, path).toEqual(html());
    }
    // Read once per asset store, not per page.
    expect(seen.filter((p) => p === "/route-preloads.json")).toHaveLength(1);
    expect((await call("/auth", { method: "HEAD", bindings: { ASSETS: STORE } })).body).toEqual({});
  });

  it("paints a bare /auth from the build's render of its first screen, and no other view or page", async () => {
    const html = (root = "") => `<!doctype html><html><head></head><body><div id="root">${root}</div></body></html>`;
    const screens = { "/auth": '<main><h1>Discover our plans</h1><input name="email"></main>', "/buy": 42, "/dashboard": "<p>not this</p>" };
    const { STORE, seen } = assetStore(html(), { "/first-screens.json": screens });
    for (const path of ["/auth", "/auth/"]) {
      expect(withoutConfig((await call(path, { bindings: { ASSETS: STORE } })).body).text, path).toEqual(html(screens["/auth"]));
    }
    // Search parameters pick another view (login, sign-up, a link's landing): the empty shell.
    for (const path of ["/auth?login=1", "/auth?email=a%40b.co", "/auth?tab=signin", "/buy", "/no-such-page"]) {
      expect(withoutConfig((await call(path, { bindings: { ASSETS: STORE } })).body).text, path).toEqual(html());
    }
    // A signed-in page keeps its own first screen (decision 030), whatever the table says.
    const dashboard = withoutConfig((await call("/dashboard", { bindings: { ASSETS: STORE } })).body).text;
    expect(dashboard).toEqual(html(firstScreenHtml({ title: DASHBOARD_TEXT.pageTitle })));
    expect(seen.filter((p) => p === "/first-screens.json")).toHaveLength(1);
  });

  it("serves the shell as it is when the build has no table of preloads", async () => {
    const html = `<!doctype html><html><head></head><body><div id="root"></div></body></html>`;
    const { STORE } = assetStore(html, {});
    expect(withoutConfig((await call("/auth", { bindings: { ASSETS: STORE } })).body).text).toEqual(html);
  });

  it("writes GET /api/config's answer into every shell, so a page restores its session without asking", async () => {
    const html = `<!doctype html><html><head></head><body><div id="root"></div></body></html>`;
    const STORE = { fetch: async () => new Response(html, { headers: { "content-type": "text/html" } }) };
    for (const bindings of [{}, { SUPABASE_URL: "https://auth.example.com", SUPABASE_ANON_KEY: "anon</script><script>x", SUPABASE_SERVICE_ROLE_KEY: "role" }]) {
      const config = await call("/api/config", { bindings });
      for (const path of ["/auth", "/dashboard", "/no-such-page"]) {
        const res = await call(path, { bindings: { ...bindings, ASSETS: STORE } });
        const { text, config: inShell } = withoutConfig(res.body);
        expect(inShell, path).toEqual(config.body);
        expect(text, path).not.toContain("</script><script>x");
      }
    }
  });

  it("keeps API and identity-service misses as JSON 404s", async () => {
    for (const path of ["/api/nothing-here", "/auth/v1/nothing-here"]) {
      const res = await call(path, { bindings: { ASSETS } });
      expect(res.status, path).toBe(404);
      expect(res.body, path).toMatchObject({ code: "not_found" });
    }
  });
});
