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

export async function startStandin(handler: StandinHandler) {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
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
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
