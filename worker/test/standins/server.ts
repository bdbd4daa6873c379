// Runs a vendor stand-in (a small Node HTTP app) on a free loopback port for the worker tests.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StandinRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  rawBody: string;
  json: () => any;
  form: () => URLSearchParams;
};
export type StandinResponse = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> };
export type StandinHandler = (req: StandinRequest) => StandinResponse | Promise<StandinResponse>;

/**
 * Fault injection, for the provider-fault proofs. A test arms a fault under a key it owns:
 *   POST /__faults {"key","mode","count","retryAfter"?}   the next `count` requests of that key fail
 *   GET  /__faults/<key>                                   every request seen under that key
 * A request belongs to a key when its path starts with /__fault/<key> (the prefix is stripped, so an
 * adapter's base URL can carry it) or its Authorization header (Basic decoded) contains the key.
 * Modes: 500 (an error answer), 429 (Retry-After), hang (headers never sent), malformed (200 with
 * broken JSON). Keys keep parallel test files apart, as the stand-ins are shared by the whole run.
 */
export type FaultMode = "500" | "429" | "hang" | "malformed";
type Fault = { mode: FaultMode; count: number; retryAfter: string; seen: { method: string; path: string; idempotencyKey: string | null; at: number }[] };

function faultKeyOf(faults: Map<string, Fault>, path: string, authorization: string | undefined): { key: string | null; path: string } {
  const m = /^\/__fault\/([^/]+)(\/.*)?$/.exec(path);
  if (m) return { key: m[1], path: m[2] ?? "/" };
  if (authorization) {
    const decoded = authorization.startsWith("Basic ") ? Buffer.from(authorization.slice(6), "base64").toString("utf8") : authorization;
    for (const key of faults.keys()) if (decoded.includes(key)) return { key, path };
  }
  return { key: null, path };
}

export async function startStandin(handler: StandinHandler) {
  const faults = new Map<string, Fault>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/__faults" && req.method === "POST") {
      const { key, mode, count, retryAfter } = JSON.parse(rawBody) as { key: string; mode: FaultMode; count: number; retryAfter?: string };
      const prior = faults.get(key);
      faults.set(key, { mode, count, retryAfter: retryAfter ?? "1", seen: prior?.seen ?? [] });
      res.writeHead(204).end();
      return;
    }
    const control = /^\/__faults\/([^/]+)$/.exec(url.pathname);
    if (control && req.method === "GET") {
      const f = faults.get(control[1]);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ seen: f?.seen ?? [], remaining: f?.count ?? 0 }));
      return;
    }
    const routed = faultKeyOf(faults, url.pathname, typeof req.headers.authorization === "string" ? req.headers.authorization : undefined);
    if (routed.key) {
      url.pathname = routed.path;
      let f = faults.get(routed.key);
      if (!f) faults.set(routed.key, (f = { mode: "500", count: 0, retryAfter: "1", seen: [] }));
      const idem = req.headers["idempotency-key"];
      f.seen.push({ method: req.method ?? "GET", path: url.pathname, idempotencyKey: typeof idem === "string" ? idem : null, at: Date.now() });
      if (f.count > 0) {
        f.count -= 1;
        if (f.mode === "hang") return; // never answers; the client must give up on its own
        if (f.mode === "500") {
          res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Internal server error (stand-in fault)" }, message: "Internal server error (stand-in fault)" }));
          return;
        }
        if (f.mode === "429") {
          res.writeHead(429, { "content-type": "application/json", "retry-after": f.retryAfter }).end(JSON.stringify({ error: { message: "Too many requests (stand-in fault)" }, message: "Too many requests (stand-in fault)" }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end('{"id": "half-writ');
        return;
      }
    }
    try {
      const out = await handler({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        json: () => (rawBody ? JSON.parse(rawBody) : {}),
        form: () => new URLSearchParams(rawBody),
      });
      const body = out.json !== undefined ? JSON.stringify(out.json) : (out.text ?? "");
      res.writeHead(out.status ?? 200, {
        "content-type": out.json !== undefined ? "application/json" : "text/plain",
        ...out.headers,
      });
      res.end(body);
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: (e as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // hung fault requests would otherwise hold the server open
      }),
  };
}
