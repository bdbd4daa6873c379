// An HTTPS front speaking HTTP/2 for the local server, for the browser benches: deployed, the edge
// answers the browser over HTTP/2 (or 3), which carries every request of a page on one connection,
// while `wrangler dev` speaks HTTP/1.1, where Chromium opens at most six connections per host and the
// dashboard's twenty requests and its late chunks wait in line for them. The front takes each HTTP/2
// stream and passes it to the local server over a keep-alive HTTP/1.1 connection of its own, with the
// browser's host kept, so the Worker sees the request as the browser sent it. WebSocket upgrades come
// over HTTP/1.1 (the front offers both through ALPN) and are piped through as they are.
// The certificate is made for each run and never trusted: the bench's browser context ignores
// certificate errors for this origin alone.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { generate } from "selfsigned";

// HTTP/2 pseudo-headers and hop-by-hop headers do not cross to HTTP/1.1 (RFC 9113 §8.2.2).
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "http2-settings",
]);

/** Starts the front on `port`; `target` is the local server's origin (http://127.0.0.1:PORT). */
export async function startHttp2Front({ target, port }) {
  const upstream = new URL(target);
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
    ],
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const server = http2.createSecureServer({
    key: pems.private,
    cert: pems.cert,
    allowHTTP1: true,
  });
  // Open connections end with the front (the browser keeps them alive otherwise).
  const open = new Set();
  server.on("secureConnection", (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });

  // Both protocols' requests (HTTP/2 streams through the compatibility API, HTTP/1.1 as it is).
  server.on("request", (req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith(":") || NOT_FORWARDED.has(name)) continue;
      headers[name] = value;
    }
    headers.host = req.headers[":authority"] ?? req.headers.host;
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (answer) => {
        const back = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (!NOT_FORWARDED.has(name)) back[name] = value;
        res.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(res);
      },
    );
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });

  // A WebSocket (HTTP/1.1 Upgrade): the request head is written to the local server as it came, then
  // the two sockets are joined.
  server.on("upgrade", (req, socket, head) => {
    const back = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      back.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head?.length) back.write(head);
      back.pipe(socket);
      socket.pipe(back);
    });
    const end = () => {
      back.destroy();
      socket.destroy();
    };
    back.on("error", end);
    socket.on("error", end);
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `https://127.0.0.1:${port}`,
    async stop() {
      agent.destroy();
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
