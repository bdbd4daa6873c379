// DNS over HTTPS stand-in (Cloudflare's JSON API, GET /dns-query?name=&type=A|AAAA with
// accept: application/dns-json) for the webhook URL checks: the answers the real resolvers give for
// the names the tests use, so the Worker's resolver and checks run exactly as against the network.
//   <a.b.c.d>.nip.io, <anything>.<a.b.c.d>.nip.io, <a-b-c-d>.nip.io  A a.b.c.d (as nip.io answers)
//   localtest.me and *.localtest.me                                  A 127.0.0.1 (as its owner publishes)
//   example.com, example.net, example.org and their subdomains       A 93.184.215.14, AAAA 2606:2800:21f:cb07:6820:80da:af6b:8b2c
//   any other name                                                   NXDOMAIN (Status 3)
import type { StandinHandler, StandinResponse } from "./server";

const A = 1;
const AAAA = 28;
const EXAMPLE = { a: "93.184.215.14", aaaa: "2606:2800:21f:cb07:6820:80da:af6b:8b2c" };

/** The name's A and AAAA records, or null when the name does not exist. */
function records(name: string): { a: string[]; aaaa: string[] } | null {
  const host = name.toLowerCase().replace(/\.$/, "");
  const nip = /(?:^|\.)(\d{1,3}(?:[.-]\d{1,3}){3})\.nip\.io$/.exec(host);
  if (nip) return { a: [nip[1].replace(/-/g, ".")], aaaa: [] };
  if (host === "localtest.me" || host.endsWith(".localtest.me")) return { a: ["127.0.0.1"], aaaa: [] };
  if (/(^|\.)example\.(com|net|org)$/.test(host)) return { a: [EXAMPLE.a], aaaa: [EXAMPLE.aaaa] };
  return null;
}

export async function dnsStandin(): Promise<StandinHandler> {
  return (req): StandinResponse => {
    if (req.path !== "/dns-query" || req.method !== "GET") return { status: 404, text: "Not found" };
    const name = req.query.get("name") ?? "";
    const type = req.query.get("type") === "AAAA" ? AAAA : A;
    const found = records(name);
    const question = [{ name, type }];
    if (!found) return { json: { Status: 3, Question: question }, headers: { "content-type": "application/dns-json" } };
    const data = type === A ? found.a : found.aaaa;
    return { json: { Status: 0, Question: question, Answer: data.map((d) => ({ name, type, TTL: 300, data: d })) }, headers: { "content-type": "application/dns-json" } };
  };
}
