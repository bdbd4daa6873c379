// Where a webhook may be sent (docs/webhooks.md#url-rules, decision 070), checked when an endpoint is
// saved and again before every attempt: https only in production; never a loopback, private,
// link-local, carrier-grade NAT, metadata or otherwise reserved address, however the address is
// written (the URL parser turns the decimal, octal and hex IPv4 forms into dotted quads, and IPv6
// literals into their compressed form, which is checked here, IPv4-mapped forms included); never a
// local-only name. With a resolver (DNS over HTTPS, production at delivery), every address a name
// resolves to is checked too. The local receiver is the one exception, outside production only.
import { WEBHOOK_INBOX_PATH } from "@shared/webhooks";

export type UrlVerdict = { ok: true; url: URL; localInbox: boolean } | { ok: false; reason: string };

/** Resolves a host name to its IPv4 and IPv6 addresses. */
export type Resolver = (hostname: string) => Promise<string[]>;

type Rule = { base: number[]; bits: number; reason: string };

const LOOPBACK = "a loopback address";
const PRIVATE = "a private network address";
const LINK_LOCAL = "a link-local or cloud metadata address";
const CGNAT = "a carrier-grade NAT address";
const RESERVED = "a reserved or non-routable address";

const IPV4_RULES: Rule[] = [
  { base: [0, 0, 0, 0], bits: 8, reason: RESERVED },
  { base: [10, 0, 0, 0], bits: 8, reason: PRIVATE },
  { base: [100, 64, 0, 0], bits: 10, reason: CGNAT },
  { base: [127, 0, 0, 0], bits: 8, reason: LOOPBACK },
  { base: [169, 254, 0, 0], bits: 16, reason: LINK_LOCAL },
  { base: [172, 16, 0, 0], bits: 12, reason: PRIVATE },
  { base: [192, 0, 0, 0], bits: 24, reason: RESERVED },
  { base: [192, 0, 2, 0], bits: 24, reason: RESERVED },
  { base: [192, 88, 99, 0], bits: 24, reason: RESERVED },
  { base: [192, 168, 0, 0], bits: 16, reason: PRIVATE },
  { base: [198, 18, 0, 0], bits: 15, reason: RESERVED },
  { base: [198, 51, 100, 0], bits: 24, reason: RESERVED },
  { base: [203, 0, 113, 0], bits: 24, reason: RESERVED },
  { base: [224, 0, 0, 0], bits: 4, reason: RESERVED },
  { base: [240, 0, 0, 0], bits: 4, reason: RESERVED },
];

/** Host names that only mean something inside a network (or the metadata services' own names). */
const LOCAL_NAMES = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home\.arpa|corp)$/;

function matches(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < base.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

/** A dotted-quad IPv4 address's four bytes, or null. */
function ipv4Bytes(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function ipv4Reason(bytes: number[]): string | null {
  if (bytes.every((b) => b === 255)) return RESERVED;
  return IPV4_RULES.find((r) => matches(bytes, r.base, r.bits))?.reason ?? null;
}

/** An IPv6 address (without brackets) as its 16 bytes, or null when it is not one. */
function ipv6Bytes(host: string): number[] | null {
  let text = host.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(":")) return null;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes its two groups.
  const quad = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
  if (quad) {
    const v4 = ipv4Bytes(quad[1]);
    if (!v4) return null;
    text = text.slice(0, quad.index) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function ipv6Reason(bytes: number[]): string | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 15) && bytes[15] === 1) return LOOPBACK;
  if (zeros(0, 16)) return RESERVED;
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address decides.
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeros(0, 12);
  const nat64 = bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  if (mapped || compatible || nat64) return ipv4Reason(bytes.slice(12)) ?? (compatible ? RESERVED : null);
  if ((bytes[0] & 0xfe) === 0xfc) return PRIVATE;
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return LINK_LOCAL;
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return PRIVATE;
  if (bytes[0] === 0xff) return RESERVED;
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return RESERVED;
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2-5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return ipv4Reason(bytes.slice(2, 6));
  return null;
}

/** Why an address (IPv4 dotted quad or IPv6, brackets allowed) must not be sent to; null when it may. */
export function addressRefusal(address: string): string | null {
  const host = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const v4 = ipv4Bytes(host);
  if (v4) return ipv4Reason(v4);
  const v6 = ipv6Bytes(host);
  if (v6) return ipv6Reason(v6);
  return null;
}

const isLoopbackHost = (host: string) => host === "localhost" || host === "127.0.0.1" || host === "[::1]";

/**
 * Whether `raw` may receive webhooks: the URL to send to, or the reason it may not (each reason
 * names the rule it broke). `resolve`, when given, is asked for the name's addresses, and each is
 * checked too; a name it cannot resolve is refused.
 */
export async function checkWebhookUrl(raw: string, opts: { production: boolean; resolve?: Resolver }): Promise<UrlVerdict> {
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
  // The local receiver (npm start): delivered in-process, never over the network, and never in production.
  if (!opts.production && isLoopbackHost(host) && url.pathname.startsWith(`${WEBHOOK_INBOX_PATH}/`)) {
    return { ok: true, url, localInbox: true };
  }
  const literal = addressRefusal(host);
  if (literal) return { ok: false, reason: `points to ${literal}` };
  const isLiteral = ipv4Bytes(host) !== null || host.startsWith("[");
  if (!isLiteral) {
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
export function dohResolver(fetcher: typeof fetch = fetch, endpoint = "https://cloudflare-dns.com/dns-query"): Resolver {
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
    const [a, aaaa] = await Promise.all([ask("A"), ask("AAAA")]);
    return [...a, ...aaaa];
  };
}
