// The SSRF matrix: every way of writing an address a webhook must never reach, refused with its
// reason; the public addresses and names it may reach, accepted; the local receiver only outside
// production; resolved names checked by every address they resolve to.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Bindings } from "../env";
import { call, signUpAndSignIn } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";
import { deliveryDeps } from "./consumer";
import { checkWebhookUrl, dohResolver, urlChecks } from "./url-safety";

const LOOPBACK = "points to a loopback address";
const PRIVATE = "points to a private network address";
const LINK_LOCAL = "points to a link-local or cloud metadata address";
const CGNAT = "points to a carrier-grade NAT address";
const RESERVED = "points to a reserved or non-routable address";

const REFUSED: [string, string][] = [
  // Scheme and credentials
  ["ftp://example.com/hook", "must use https"],
  ["file:///etc/passwd", "must use https"],
  ["https://user:pass@example.com/hook", "must not carry a user name or password"],
  ["not a url", "is not a valid URL"],
  // IPv4 loopback in every spelling the URL parser accepts
  ["https://127.0.0.1/hook", LOOPBACK],
  ["https://127.1.2.3/hook", LOOPBACK],
  ["https://2130706433/hook", LOOPBACK],
  ["https://0x7f000001/hook", LOOPBACK],
  ["https://0x7f.0.0.1/hook", LOOPBACK],
  ["https://0177.0.0.1/hook", LOOPBACK],
  ["https://017700000001/hook", LOOPBACK],
  ["https://127.1/hook", LOOPBACK],
  ["https://0/hook", RESERVED],
  ["https://0.0.0.0/hook", RESERVED],
  // Private, CGNAT, link-local and metadata
  ["https://10.0.0.8/hook", PRIVATE],
  ["https://172.16.5.4/hook", PRIVATE],
  ["https://172.31.255.255/hook", PRIVATE],
  ["https://192.168.1.1/hook", PRIVATE],
  ["https://0xc0a80101/hook", PRIVATE],
  ["https://3232235777/hook", PRIVATE],
  ["https://100.64.0.1/hook", CGNAT],
  ["https://100.127.255.254/hook", CGNAT],
  ["https://169.254.169.254/latest/meta-data", LINK_LOCAL],
  ["https://0xa9fea9fe/latest/meta-data", LINK_LOCAL],
  ["https://2852039166/latest/meta-data", LINK_LOCAL],
  ["https://224.0.0.1/hook", RESERVED],
  ["https://255.255.255.255/hook", RESERVED],
  ["https://198.18.0.1/hook", RESERVED],
  // IPv6 literals, including IPv4 carried inside them
  ["https://[::1]/hook", LOOPBACK],
  ["https://[0:0:0:0:0:0:0:1]/hook", LOOPBACK],
  ["https://[::]/hook", RESERVED],
  ["https://[::ffff:127.0.0.1]/hook", LOOPBACK],
  ["https://[::ffff:7f00:1]/hook", LOOPBACK],
  ["https://[::ffff:169.254.169.254]/hook", LINK_LOCAL],
  ["https://[::ffff:10.0.0.1]/hook", PRIVATE],
  ["https://[::127.0.0.1]/hook", LOOPBACK],
  ["https://[64:ff9b::a9fe:a9fe]/hook", LINK_LOCAL],
  ["https://[2002:c0a8:0101::1]/hook", PRIVATE],
  ["https://[fc00::1]/hook", PRIVATE],
  ["https://[fd00:ec2::254]/hook", PRIVATE],
  ["https://[fe80::1]/hook", LINK_LOCAL],
  ["https://[ff02::1]/hook", RESERVED],
  ["https://[2001:db8::1]/hook", RESERVED],
  // IPv4 inside IPv6 in the forms a hand-written table missed: local-use NAT64, IPv4-translated, the discard prefix
  ["https://[64:ff9b:1::a00:1]/", PRIVATE],
  ["https://[::ffff:0:7f00:1]/", LOOPBACK],
  ["https://[100::1]/", RESERVED],
  ["https://[64:ff9b::7f00:1]/hook", LOOPBACK],
  ["https://[2002:7f00:1::]/hook", LOOPBACK],
  // Teredo: the client's IPv4 is the last 32 bits inverted (here 127.0.0.1, behind a public server)
  ["https://[2001:0:808:808:0:0:80ff:fffe]/hook", LOOPBACK],
  ["https://[2001:0:a00:1::1]/hook", PRIVATE],
  ["https://[::8.8.8.8]/hook", RESERVED],
  ["https://[fec0::1]/hook", PRIVATE],
  ["https://[2001:2::1]/hook", RESERVED],
  ["https://192.175.48.1/hook", RESERVED],
  // Names that only mean something inside a network
  ["https://localhost/hook", "points to a local-only host name"],
  ["https://LOCALHOST./hook", "points to a local-only host name"],
  ["https://api.localhost/hook", "points to a local-only host name"],
  ["https://printer.local/hook", "points to a local-only host name"],
  ["https://metadata.google.internal/computeMetadata/v1", "points to a local-only host name"],
  ["https://fileserver/hook", "needs a fully qualified host name"],
];

const ACCEPTED = [
  "https://example.com/hook",
  "https://hooks.example.com:8443/path?x=1",
  "https://93.184.216.34/hook",
  "https://8.8.8.8/hook",
  "https://100.128.0.1/hook",
  "https://172.32.0.1/hook",
  "https://[2606:4700:4700::1111]/hook",
  "https://[::ffff:8.8.8.8]/hook",
  "https://[64:ff9b::808:808]/hook",
  "https://[2002:808:808::1]/hook",
  "https://[2001:0:808:808:0:0:f7f7:f7f7]/hook",
];

describe("webhook URLs: refused, each with its reason", () => {
  for (const [url, reason] of REFUSED) {
    it(`${url} → ${reason}`, async () => {
      const verdict = await checkWebhookUrl(url, { production: true });
      expect(verdict).toEqual({ ok: false, reason });
    });
  }
});

describe("webhook URLs: accepted", () => {
  for (const url of ACCEPTED) {
    it(url, async () => {
      const verdict = await checkWebhookUrl(url, { production: true });
      expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
    });
  }
});

describe("IPv4 inside IPv6, outside production too", () => {
  it("refuses the local-use NAT64, IPv4-translated and discard forms over http", async () => {
    expect(await checkWebhookUrl("http://[64:ff9b:1::a00:1]/", { production: false })).toEqual({ ok: false, reason: PRIVATE });
    expect(await checkWebhookUrl("http://[::ffff:0:7f00:1]/", { production: false })).toEqual({ ok: false, reason: LOOPBACK });
    expect(await checkWebhookUrl("http://[100::1]/", { production: false })).toEqual({ ok: false, reason: RESERVED });
  });
});

describe("https, and the local receiver", () => {
  it("http is refused in production and taken elsewhere", async () => {
    expect(await checkWebhookUrl("http://example.com/hook", { production: true })).toEqual({ ok: false, reason: "must use https" });
    expect((await checkWebhookUrl("http://example.com/hook", { production: false })).ok).toBe(true);
  });

  it("the local receiver is taken outside production only, and only at its own path", async () => {
    const inbox = "http://localhost:8787/api/local/webhook-inbox/default";
    expect(await checkWebhookUrl(inbox, { production: false })).toMatchObject({ ok: true, localInbox: true });
    expect(await checkWebhookUrl("http://127.0.0.1:8787/api/local/webhook-inbox/x", { production: false })).toMatchObject({ ok: true, localInbox: true });
    expect(await checkWebhookUrl(inbox, { production: true })).toEqual({ ok: false, reason: "must use https" });
    expect(await checkWebhookUrl("https://localhost/api/local/webhook-inbox/default", { production: true })).toEqual({
      ok: false,
      reason: "points to a local-only host name",
    });
    expect(await checkWebhookUrl("http://localhost:8787/api/health", { production: false })).toEqual({ ok: false, reason: "points to a local-only host name" });
  });
});

describe("outside production: only public addresses, and the local receiver's own path", () => {
  const dns = `${inject("standins").dns}/dns-query`;
  const development = { production: false, ...urlChecks({ DNS_OVER_HTTPS_URL: dns, PUBLIC_URL: "https://dev.voice-ops.example" }) };

  it("resolves every name, as production does, and refuses one that reaches a loopback address", async () => {
    expect(await checkWebhookUrl("https://127.0.0.1.nip.io/", development)).toEqual({ ok: false, reason: "resolves to a loopback address" });
    expect(await checkWebhookUrl("http://localtest.me/", development)).toEqual({ ok: false, reason: "resolves to a loopback address" });
    expect(await checkWebhookUrl("http://hooks.10.0.0.8.nip.io/in", development)).toEqual({ ok: false, reason: "resolves to a private network address" });
    expect(await checkWebhookUrl("http://no-such-name.invalid-tld-for-tests/", development)).toEqual({ ok: false, reason: "host name does not resolve" });
    expect(await checkWebhookUrl("http://hooks.example.com/in", development)).toMatchObject({ ok: true, localInbox: false });
  });

  it("refuses a name when it cannot be resolved (no network: the resolver does not answer)", async () => {
    // A path the DNS stand-in does not serve: the resolver's every answer is a 404.
    const offline = { production: false, ...urlChecks({ DNS_OVER_HTTPS_URL: `${inject("standins").dns}/unreachable`, PUBLIC_URL: undefined }) };
    expect(await checkWebhookUrl("https://hooks.example.com/in", offline)).toEqual({ ok: false, reason: "host name could not be resolved" });
    // The local receiver needs no resolution.
    expect(await checkWebhookUrl("http://127.0.0.1:8787/api/local/webhook-inbox/default", offline)).toMatchObject({ ok: true, localInbox: true });
  });

  it("takes the local receiver at exactly its inbox path, on a loopback origin or the configured public one", async () => {
    expect(await checkWebhookUrl("http://127.0.0.1:8787/api/local/webhook-inbox/default", development)).toMatchObject({ ok: true, localInbox: true });
    expect(await checkWebhookUrl("https://dev.voice-ops.example/api/local/webhook-inbox/default?fail=30", development)).toMatchObject({ ok: true, localInbox: true });
    // Not an inbox: a deeper path, an empty or invalid name, another path of the app.
    for (const url of ["http://127.0.0.1:8787/api/local/webhook-inbox/a/b", "http://127.0.0.1:8787/api/local/webhook-inbox/", "http://127.0.0.1:8787/api/local/webhook-inbox/a%20b", "http://127.0.0.1:8787/api/health"]) {
      expect(await checkWebhookUrl(url, development), url).toEqual({ ok: false, reason: LOOPBACK });
    }
    // Another origin's path of that name is an ordinary URL: resolved and checked.
    expect(await checkWebhookUrl("https://127.0.0.1.nip.io/api/local/webhook-inbox/default", development)).toEqual({ ok: false, reason: "resolves to a loopback address" });
  });

  it("the API refuses names resolving to loopback on save, with the field url, and keeps the local receiver", async () => {
    const s = await signUpAndSignIn();
    const save = (url: string) => call("/api/webhook-endpoints", { method: "POST", token: s.accessToken, json: { url, events: ["call.started"] } });
    for (const url of ["https://127.0.0.1.nip.io/", "http://localtest.me/"]) {
      const res = await save(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ field: "url", error: "The URL resolves to a loopback address" });
    }
    expect((await save("http://127.0.0.1:8787/api/local/webhook-inbox/default")).status).toBe(201);
    expect((await save("https://hooks.example.com/in")).status).toBe(201);
  });

  it("the queue consumer checks again before each attempt, with the same resolver", async () => {
    const deps = deliveryDeps({ ...(env as unknown as Bindings), APP_ENV: "development" }, (r) => fetch(r));
    expect(await checkWebhookUrl("https://127.0.0.1.nip.io/", deps)).toEqual({ ok: false, reason: "resolves to a loopback address" });
    const production = deliveryDeps({ ...(env as unknown as Bindings), ...PRODUCTION_BINDINGS }, (r) => fetch(r));
    expect(await checkWebhookUrl("https://127.0.0.1.nip.io/", production)).toEqual({ ok: false, reason: "resolves to a loopback address" });
  });
});

describe("names resolved before the attempt", () => {
  const resolver = (answers: Record<string, string[]>) => (name: string) => (name in answers ? Promise.resolve(answers[name]) : Promise.reject(new Error("NXDOMAIN")));

  it("a name resolving to an inside address is refused with that address's reason", async () => {
    const resolve = resolver({ "rebind.example.com": ["93.184.216.34", "10.1.2.3"], "six.example.com": ["::1"], "ok.example.com": ["93.184.216.34"] });
    expect(await checkWebhookUrl("https://rebind.example.com/h", { production: true, resolve })).toEqual({ ok: false, reason: "resolves to a private network address" });
    expect(await checkWebhookUrl("https://six.example.com/h", { production: true, resolve })).toEqual({ ok: false, reason: "resolves to a loopback address" });
    expect((await checkWebhookUrl("https://ok.example.com/h", { production: true, resolve })).ok).toBe(true);
    expect(await checkWebhookUrl("https://gone.example.com/h", { production: true, resolve })).toEqual({ ok: false, reason: "host name could not be resolved" });
  });

  it("the DNS-over-HTTPS resolver asks for A and AAAA records and returns their addresses", async () => {
    const asked: string[] = [];
    const fake = ((input: RequestInfo | URL) => {
      const url = new URL(String(input));
      asked.push(url.searchParams.get("type")!);
      const answer =
        url.searchParams.get("type") === "A"
          ? [{ type: 5, data: "alias.example.net." }, { type: 1, data: "169.254.169.254" }]
          : [{ type: 28, data: "2606:4700::1" }];
      return Promise.resolve(Response.json({ Status: 0, Answer: answer }));
    }) as typeof fetch;
    const addresses = await dohResolver(fake)("hooks.example.com");
    expect(asked.sort()).toEqual(["A", "AAAA"]);
    expect(addresses).toEqual(["169.254.169.254", "2606:4700::1"]);
    expect(await checkWebhookUrl("https://hooks.example.com/h", { production: true, resolve: dohResolver(fake) })).toEqual({
      ok: false,
      reason: "resolves to a link-local or cloud metadata address",
    });
  });
});
