// The local R2 bucket of the call text (CALL_TEXT, decision 077) for the scripts that write or read
// the local state directly (the seed, the search rebuild): the same Miniflare storage `npm start`
// (wrangler dev) uses, under <state dir>/v3/r2, reached through Miniflare's own API.
import path from "node:path";
import { root } from "./lib.mjs";

/** The bucket's binding and name, as wrangler.toml declares them. */
export const CALL_TEXT = { binding: "CALL_TEXT", bucket: "voice-agent-ops-call-text" };

/**
 * The runtime's one Worker, so many objects cost one request instead of one each: POST /put with a
 * JSON array of { key, body } puts them all; POST /get with a JSON array of keys answers an object
 * of key → body for the keys that exist.
 */
const WRITER = `export default {
  async fetch(request, env) {
    const bucket = env.${CALL_TEXT.binding};
    const items = await request.json();
    if (new URL(request.url).pathname === "/get") {
      const found = await Promise.all(items.map(async (key) => [key, await (await bucket.get(key))?.text()]));
      return Response.json(Object.fromEntries(found.filter(([, body]) => body !== undefined)));
    }
    await Promise.all(items.map((o) => bucket.put(o.key, o.body, { httpMetadata: { contentType: "application/json" } })));
    return Response.json({ written: items.length });
  },
};`;

/** Objects per request to the runtime's Worker. */
const BATCH = 500;

/**
 * Opens the local bucket of the state in `stateDir` (default .wrangler/state). Returns the R2 binding
 * (put/get/list/delete as in the Worker), `putMany` and `getMany` for many objects at once, and
 * `dispose`, which must be called to end the runtime.
 */
export async function openLocalCallText(stateDir = path.join(root, ".wrangler", "state")) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: WRITER,
      compatibilityDate: "2026-08-01",
      resourcePersistencePath: path.join(stateDir, "v3"),
      r2Buckets: { [CALL_TEXT.binding]: CALL_TEXT.bucket },
      enableDevRegistry: false,
    }),
  );
  const bucket = await mf.getR2Bucket(CALL_TEXT.binding);
  /** Sends `items` to the Worker's `route`, BATCH per request, a few requests at a time; the answers in order. */
  const send = async (route, items) => {
    const batches = [];
    for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
    const answers = [];
    await inParallel(batches.length, 4, async (i) => {
      const res = await mf.dispatchFetch(`http://local${route}`, { method: "POST", body: JSON.stringify(batches[i]) });
      if (!res.ok) throw new Error(`local R2 answered ${res.status}: ${await res.text()}`);
      answers[i] = await res.json();
    });
    return answers;
  };
  /** Puts many objects ({ key, body }). */
  const putMany = async (objects) => {
    await send("/put", objects);
  };
  /** Many objects' bodies by key (a missing object is not in the map). */
  const getMany = async (keys) => new Map((await send("/get", keys)).flatMap((found) => Object.entries(found)));
  return { bucket, putMany, getMany, dispose: () => mf.dispose() };
}

/** Runs `work(i)` for i in [0, n), `parallel` at a time (the local runtime takes many puts at once). */
export async function inParallel(n, parallel, work) {
  let next = 0;
  const worker = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, n) }, worker));
}
