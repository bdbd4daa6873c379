// Memory of a `wrangler dev` under load, as the load proof and its control run report it.
//
// - The worker's memory: its JS heap after a full GC, read through wrangler's inspector port. A full GC
//   is forced by a heap snapshot (bench/inspector.mjs) before the load, 10 s into it, every `gcEveryS`
//   after that, and once the load is over ("after"); each pauses the worker for a few seconds. "after"
//   minus "before" is what the worker kept from serving the load.
// - The JS heap in use between collections (garbage included), every second.
// - The RSS of wrangler's two workerd processes, every second: the app's (worker, assets, local D1) split
//   into anonymous and file-backed, and wrangler's proxy.
import path from "node:path";
import { groupWorkerdMemory } from "./ops.mjs";

const SAMPLE_MS = 1000;
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const signed = (s) => (s.startsWith("-") ? s : `+${s}`);

export function watchMemory({ pgid, inspector, snapshotDir, gcEveryS, durationS }) {
  if (!groupWorkerdMemory(pgid).some((p) => p.app)) throw new Error("no workerd with an inspector in the server's group");
  const rss = [];
  const used = [];
  const heap = [];
  const gcMs = [];
  let usedBusy = false;
  let sampler = null;
  const timers = [];
  let error = null;
  let started = null;
  let ended = null;

  const sample = () => {
    const all = groupWorkerdMemory(pgid);
    const app = all.find((p) => p.app);
    const proxyKb = all.filter((p) => !p.app).reduce((n, p) => n + p.rssKb, 0);
    if (app) rss.push({ t: Date.now(), ...app, proxyKb });
    if (usedBusy) return;
    usedBusy = true;
    inspector
      .heapUsed()
      .then((bytes) => used.push({ t: Date.now(), bytes }))
      .catch(() => {}) // a point lost while a snapshot holds the isolate is only a missing point
      .finally(() => (usedBusy = false));
  };

  let snapshots = Promise.resolve(); // one at a time: their chunks share the connection
  const gc = (label) => {
    const next = snapshots.then(async () => {
      const t = Date.now();
      heap.push({ t, label, bytes: await inspector.heapAfterGc(path.join(snapshotDir, `heap-${label}.heapsnapshot`)) });
      gcMs.push(Date.now() - t);
    });
    snapshots = next.catch(() => {});
    return next;
  };

  return {
    /** Before the load: the first full GC and the first samples. */
    async before() {
      await gc("before");
      sample();
      sampler = setInterval(sample, SAMPLE_MS);
    },
    /** The load starts now: full GCs at 10 s and every `gcEveryS` after. */
    loadStarted() {
      started = Date.now();
      for (let at = 10; at < durationS - 5; at += gcEveryS || Infinity) {
        timers.push(setTimeout(() => gc(`${at}s`).catch((e) => (error ??= e)), at * 1000));
      }
    },
    /**
     * The load has ended: the last RSS sample, then (once the requests still in the worker have had
     * `settleMs` to finish) the last full GC, "after": what the worker kept from serving the load.
     */
    async loadEnded({ settleMs = 5000 } = {}) {
      ended = Date.now();
      timers.forEach(clearTimeout);
      clearInterval(sampler);
      while (usedBusy) await new Promise((r) => setTimeout(r, 50));
      if (error) throw error;
      sample(); // before the last snapshot, whose own buffers would count in the RSS
      await new Promise((r) => setTimeout(r, settleMs));
      await gc("after");
    },
    latest() {
      return { rss: rss.at(-1), used: used.at(-1)?.bytes ?? 0, heap: heap.at(-1)?.bytes ?? 0 };
    },
    /**
     * The report's lines; `kept` is the heap after GC once the load is over minus before it, in bytes:
     * during the load the heap after GC also holds the requests in flight, so it moves up and down.
     */
    report({ control = false } = {}) {
      const lines = [];
      const during = rss.filter((x) => x.t >= started && x.t <= ended);
      const before = rss.filter((x) => x.t < started).at(-1) ?? rss[0];
      const at10 = during.find((x) => x.t - started >= 10_000) ?? during.at(-1) ?? before;
      const kept = heap.at(-1).bytes - heap[0].bytes;
      const avgGc = gcMs.reduce((a, b) => a + b, 0) / gcMs.length / 1000;
      lines.push(`The worker's memory, its JS heap after a full GC (each forced by a heap snapshot, which paused the worker ~${avgGc.toFixed(1)} s, inside the latencies):`);
      lines.push(`  ${heap.map((x) => `${x.label} ${mib(x.bytes)}`).join(", ")}; max ${mib(Math.max(...heap.map((x) => x.bytes)))}`);
      lines.push(`  kept from the load (after − before): ${signed(mib(kept))}; during the load it also holds the requests in flight`);
      if (used.length) lines.push(`  in use between collections (garbage included, every ${SAMPLE_MS / 1000} s): max ${mib(Math.max(...used.map((x) => x.bytes)))}`);
      lines.push("");
      lines.push("Resident memory (RSS) of wrangler's workerd processes, every second:");
      lines.push("| process | before | after 10 s | end of the load | max | end − after 10 s |");
      lines.push("|---|---:|---:|---:|---:|---:|");
      const row = (name, value) => {
        const [b, a, e] = [value(before), value(at10), value(rss.at(-1))];
        lines.push(`| ${name} | ${mb(b)} | ${mb(a)} | ${mb(e)} | ${mb(Math.max(...rss.map(value)))} | ${signed(mb(e - a))} |`);
      };
      row("app's workerd (worker, assets, local D1)", (x) => x.rssKb);
      row("  of which anonymous", (x) => x.anonKb);
      row("wrangler's proxy workerd", (x) => x.proxyKb);
      const trace = [];
      for (let at = 0; started && at <= (ended - started) / 1000; at += 30) {
        const x = during.find((y) => y.t - started >= at * 1000);
        if (x) trace.push(`${at} s ${Math.round(x.rssKb / 1024)}`);
      }
      lines.push(`app's workerd RSS every 30 s of the load (MB): ${trace.join(", ")}, end ${Math.round(rss.at(-1).rssKb / 1024)}`);
      lines.push("");
      lines.push("The app's workerd RSS is not the worker's own memory: it also holds the local D1 (SQLite inside a");
      lines.push("Durable Object), the asset server, V8's uncollected garbage, the snapshots above and what the runtime");
      if (control) lines.push("and its allocator keep. Here the worker is a few lines: what grows is the runtime's.");
      else {
        lines.push("and its allocator keep; `npm run proof:load:control` shows it growing under the same load for a worker");
        lines.push("that only answers \"ok\".");
      }
      return { lines, kept };
    },
  };
}
