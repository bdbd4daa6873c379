// The worker's own JavaScript heap, read through `wrangler dev --inspector-port` (the Chrome DevTools
// Protocol that workerd speaks for the worker's isolate, relayed by wrangler's inspector proxy).
// The RSS of a workerd process says little about the worker: it also holds the local D1 (SQLite in a
// Durable Object), the asset server, V8's garbage not yet collected and whatever the allocator keeps;
// the heap after a full GC is what the worker itself keeps alive between requests.
//
// workerd never answers `HeapProfiler.collectGarbage` (the heap stays as it was), so a full GC is forced
// the way DevTools' memory panel does it: a heap snapshot, which V8 takes after collecting everything
// collectable. It pauses the isolate while the snapshot is written (a few seconds for ~10 MB of heap).
import { writeFileSync } from "node:fs";
import WebSocket from "ws";

/** Connects to the worker the inspector lists (wrangler dev proxies the app's worker only). */
export async function connectInspector(port, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let targets = [];
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/list`);
      if (res.ok) targets = await res.json();
      if (targets.length > 0) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (targets.length === 0) throw new Error(`no worker on the inspector port ${port}`);
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl, { headers: { origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  // wrangler's proxy sends its own requests to the runtime with small ids and passes their answers on.
  let nextId = 1_000_000_000;
  const pending = new Map();
  let snapshotChunks = null;
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (msg.method === "HeapProfiler.addHeapSnapshotChunk") {
      snapshotChunks?.push(msg.params.chunk);
      return;
    }
    const p = msg.id !== undefined && pending.get(msg.id);
    if (!p) return; // other events (console messages and the like) are not asked for here
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
    else p.resolve(msg.result);
  });
  ws.on("close", () => {
    for (const p of pending.values()) p.reject(new Error("the inspector connection closed"));
    pending.clear();
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, method });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** Bytes of JS heap in use now, garbage included (cheap: no collection). */
    heapUsed: async () => (await send("Runtime.getHeapUsage")).usedSize,
    /**
     * Bytes of JS heap in use right after a full garbage collection (forced by a heap snapshot);
     * the snapshot is written to `saveTo` when given (open it in DevTools' Memory panel).
     */
    async heapAfterGc(saveTo) {
      snapshotChunks = [];
      try {
        await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
        if (saveTo) writeFileSync(saveTo, snapshotChunks.join(""));
      } finally {
        snapshotChunks = null;
      }
      return (await send("Runtime.getHeapUsage")).usedSize;
    },
    close: () => ws.close(),
  };
}
