// Where a webhook may be sent (docs/webhooks.md#url-rules, decisions 070 and 075), checked when an
// endpoint is saved and again before every attempt: https only in production; only a public unicast
// address, as ipaddr.js classifies it, however the address is written (the URL parser turns the
// decimal, octal and hex IPv4 forms into dotted quads, and IPv6 literals into their compressed form),
// with an IPv4 address carried inside an IPv6 one (IPv4-mapped, IPv4-translated, NAT64, 6to4, Teredo)
// checked as that IPv4 address, and IPv4-compatible ones refused; never a local-only name. Every
// deployment, production or not, resolves a name over DNS over HTTPS and checks every address it
// resolves to (a name that does not resolve is refused). The local receiver's own path is the one
// exception, outside production only.
import ipaddr from "ipaddr.js";
import { webhookInboxParams } from "@shared/schemas/webhooks";
import { WEBHOOK_INBOX_PATH } from "@shared/webhooks";
import type { AppConfig } from "../env";

export type UrlVerdict = { ok: true; url: URL; localInbox: boolean } | { ok: false; reason: string };

/** Resolves a host name to its IPv4 and IPv6 addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

const LOOPBACK = "a loopback address";
const PRIVATE = "a private network address";
const LINK_LOCAL = "a link-local or cloud metadata address";
const CGNAT = "a carrier-grade NAT address";
const RESERVED = "a reserved or non-routable address";

/** The reason named for each of ipaddr.js's ranges other than `unicast`; any other range is RESERVED. */
const RANGE_REASONS: Record<string, string> = {
  loopback: LOOPBACK,
  private: PRIVATE,
  uniqueLocal: PRIVATE,
  deprecatedSiteLocal: PRIVATE,
  linkLocal: LINK_LOCAL,
  carrierGradeNat: CGNAT,
};

/** Host names that only mean something inside a network (or the metadata services' own names). */
const LOCAL_NAMES = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home\.arpa|corp)$/;

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, each of which decides as if it were the address:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64
 * (64:ff9b::/96 and the local-use 64:ff9b:1::/48: the last 32 bits), 6to4 (2002::/16: bits 16-47)
 * and Teredo (2001::/32: the server in bits 32-63, the client obfuscated in the last 32). Empty for
 * any other address.
 */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const last = v4(p[6], p[7]);
  if (zeros(0, 5) && p[5] === 0xffff) return [last]; // IPv4-mapped
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [last]; // IPv4-translated
  if (p[0] === 0x64 && p[1] === 0xff9b && ((p[2] === 0 && zeros(3, 6)) || p[2] === 1)) return [last]; // NAT64
  if (p[0] === 0x2002) return [v4(p[1], p[2])]; // 6to4
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)]; // Teredo
  return [];
}

/** Why a parsed address must not be sent to; null when ipaddr.js classifies it (and every IPv4 address it carries) as unicast. */
function refusalOf(address: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (address.kind() === "ipv6") {
    const range = address.range();
    // ::1 and :: first: read as IPv4-compatible below, they would be 0.0.0.1 and 0.0.0.0.
    if (range === "loopback") return LOOPBACK;
    if (range === "unspecified") return RESERVED;
    const p = (address as ipaddr.IPv6).parts;
    // IPv4-compatible (::a.b.c.d, deprecated and never routed): its IPv4 address's reason, else reserved.
    if (p.slice(0, 6).every((x) => x === 0)) return refusalOf(v4(p[6], p[7])) ?? RESERVED;
    const carried = carriedIpv4(address as ipaddr.IPv6);
    if (carried.length > 0) return carried.map(refusalOf).find((r) => r !== null) ?? null;
    return range === "unicast" ? null : (RANGE_REASONS[range] ?? RESERVED);
  }
  const range = address.range();
  return range === "unicast" ? null : (RANGE_REASONS[range] ?? RESERVED);
}

/** The address a host is, when it is a literal one (a dotted quad, or IPv6 with or without brackets); null for a name. */
function literalAddress(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const inner = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (ipaddr.IPv4.isValidFourPartDecimal(inner)) return ipaddr.IPv4.parse(inner);
  if (inner.includes(":") && ipaddr.IPv6.isValid(inner)) return ipaddr.IPv6.parse(inner);
  return null;
}

/** Why an address (IPv4 dotted quad or IPv6, brackets allowed) must not be sent to; null when it may. Not an address: refused as reserved. */
export function addressRefusal(address: string): string | null {
  const parsed = literalAddress(address);
  return parsed ? refusalOf(parsed) : RESERVED;
}

const isLoopbackHost = (host: string) => host === "localhost" || host === "127.0.0.1" || host === "[::1]";

/** Whether a path is exactly one inbox of the local receiver: /api/local/webhook-inbox/<name>. */
const isInboxPath = (path: string) =>
  path.startsWith(`${WEBHOOK_INBOX_PATH}/`) && webhookInboxParams.safeParse({ inbox: path.slice(WEBHOOK_INBOX_PATH.length + 1) }).success;

export type UrlCheckOptions = {
  production: boolean;
  /** Asked for a name's addresses, each of which is checked; without one a name is not resolved (unit tests only: every deployment has one, see urlChecks). */
  resolve?: Resolver;
  /** Origins besides the loopback ones where the local receiver is the app's own (the configured PUBLIC_URL's). */
  localOrigins?: readonly string[];
};

/** DNS over HTTPS, when DNS_OVER_HTTPS_URL names no other: Cloudflare's JSON API. */
export const DEFAULT_DNS_OVER_HTTPS_URL = "https://cloudflare-dns.com/dns-query";

/**
 * How this deployment checks webhook URLs, production or not: names resolved over DNS over HTTPS
 * (DNS_OVER_HTTPS_URL, else Cloudflare's), so outside production too only public addresses are
 * reached (with no network, a name is refused: it cannot be resolved), and the local receiver at the
 * loopback origins and PUBLIC_URL's.
 */
export function urlChecks(config: Pick<AppConfig, "DNS_OVER_HTTPS_URL" | "PUBLIC_URL">): Required<Omit<UrlCheckOptions, "production">> {
  let publicOrigin: string | null = null;
  try {
    publicOrigin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : null;
  } catch {
    publicOrigin = null;
  }
  const resolve = dohResolver((input, init) => fetch(input, init), config.DNS_OVER_HTTPS_URL ?? DEFAULT_DNS_OVER_HTTPS_URL);
  return { resolve, localOrigins: publicOrigin ? [publicOrigin] : [] };
}

/**
 * Whether `raw` may receive webhooks: the URL to send to, or the reason it may not (each reason
 * names the rule it broke). `resolve`, when given, is asked for the name's addresses, and each is
 * checked too; a name it cannot resolve is refused.
 */
export async function checkWebhookUrl(raw: string, opts: UrlCheckOptions): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "must use https" };
  if (opts.production && url.protocol !== "https:") return { ok: false, reason: "must use https" };
  if (url.username || url.password) return { ok: false, reason: "must not carry a user name or password" };
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  // The local receiver (npm start): exactly its inbox path on a loopback origin or the configured
  // public one; delivered in-process, never over the network, and never in production.
  if (!opts.production && isInboxPath(url.pathname) && (isLoopbackHost(host) || (opts.localOrigins ?? []).includes(url.origin))) {
    return { ok: true, url, localInbox: true };
  }
  const literal = literalAddress(host);
  if (literal) {
    const refusal = refusalOf(literal);
    if (refusal) return { ok: false, reason: `points to ${refusal}` };
  } else {
    if (LOCAL_NAMES.test(host)) return { ok: false, reason: "points to a local-only host name" };
    if (!host.includes(".")) return { ok: false, reason: "needs a fully qualified host name" };
    if (/^[\d.]+$/.test(host) || /^0x/i.test(host)) return { ok: false, reason: "is not a valid host" };
    if (opts.resolve) {
      let addresses: string[];
      try {
        addresses = await opts.resolve(host);
      } catch {
        return { ok: false, reason: "host name could not be resolved" };
      }
      if (addresses.length === 0) return { ok: false, reason: "host name does not resolve" };
      for (const address of addresses) {
        const refusal = addressRefusal(address);
        if (refusal) return { ok: false, reason: `resolves to ${refusal}` };
      }
    }
  }
  return { ok: true, url, localInbox: false };
}

type DohAnswer = { Status: number; Answer?: { type: number; data: string }[] };

/**
 * A resolver over DNS over HTTPS (Cloudflare's JSON API): the A and AAAA records of a name. Workers
 * have no DNS API of their own; this sees what a public resolver answers, which is what the
 * Worker's own fetch will reach.
 */
export function dohResolver(fetcher: typeof fetch = fetch, endpoint = DEFAULT_DNS_OVER_HTTPS_URL): Resolver {
  return async (hostname) => {
    const ask = async (type: "A" | "AAAA") => {
      const res = await fetcher(`${endpoint}?name=${encodeURIComponent(hostname)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(3000),
      });
      if (!res.ok) throw new Error(`DNS over HTTPS answered ${res.status}`);
      const body = (await res.json()) as DohAnswer;
      // 1: A, 28: AAAA (a CNAME's chain ends in these).
      return (body.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
    };
    const asked = [ask("A"), ask("AAAA")];
    // Both are asked at once; when one fails, the other's failure is not left unhandled.
    for (const answer of asked) answer.catch(() => undefined);
    const [a, aaaa] = await Promise.all(asked);
    return [...a, ...aaaa];
  };
}
