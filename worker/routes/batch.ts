// POST /api/batch: several of the API's reads in one request (decision 064). Each path is dispatched
// through the app itself as a GET with the caller's own token and D1 bookmark, so each is authorized,
// limited and answered exactly as if it had been sent alone. The batch's sign-in is confirmed once,
// before its handler (auth.ts), and handed to every read in its env, so no read confirms it again:
// the reads run together after it, their D1 round trips overlapping.
import { BATCH_MAX_ANSWER_BYTES, type BatchAnswer, type BatchResponse } from "@shared/batch";
import { BOOKMARK_HEADER } from "@shared/d1-bookmarks";
import { bearerToken, ConfirmedSignIn, currentUser } from "../middleware/auth";
import { executionContext, type SelfDispatch } from "../middleware/context";
import { timingFigures, type D1Figures } from "../db/timed-d1";
import { ADDRESS_HEADERS } from "../db/rate-limit";
import { DeclaredRoutes } from "./serve";

/** The headers of a read's answer that the client keeps. */
const KEPT_HEADERS = ["content-type", BOOKMARK_HEADER, "server-timing"];

export const batchRoutes = (dispatch: SelfDispatch) =>
  new DeclaredRoutes().serve("POST /api/batch", async (c) => {
    const authorization = c.req.header("authorization")!;
    const bookmark = c.req.header(BOOKMARK_HEADER);
    const ctx = executionContext(c) as ExecutionContext | undefined;
    const env = { ...c.env, confirmedSignIn: new ConfirmedSignIn(bearerToken(authorization), currentUser(c)) };
    const responses = await Promise.all(
      c.req.valid("json").requests.map(async (path, i) => {
        const headers = new Headers({ authorization, "x-request-id": `${c.var.requestId}.${i}` });
        if (bookmark) headers.set(BOOKMARK_HEADER, bookmark);
        // The caller's address, for any per-address limit a read applies.
        for (const name of ADDRESS_HEADERS) {
          const value = c.req.header(name);
          if (value) headers.set(name, value);
        }
        return answerOf(await dispatch(new Request(new URL(path, c.req.url), { headers }), env, ctx));
      }),
    );
    c.var.dbTimer.includeAfter(alongsideFigures(responses.map((r) => r.headers["server-timing"])));
    return c.json({ responses } satisfies BatchResponse);
  });

/**
 * A read's answer as the batch carries it. Only JSON within the size cap: anything else (a download,
 * a page too large to carry twice) is answered 413 with no body, and the client asks for it alone.
 */
async function answerOf(res: Response): Promise<BatchAnswer> {
  const type = res.headers.get("content-type") ?? "";
  const declared = Number(res.headers.get("content-length") ?? 0);
  const tooLarge = { status: 413, headers: {}, body: "" };
  if (!type.startsWith("application/json") || declared > BATCH_MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  const body = await res.text();
  if (body.length > BATCH_MAX_ANSWER_BYTES) return tooLarge;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: res.status, headers, body };
}

/**
 * The D1 figures of a batch's reads, from their Server-Timing: they ran together, so their round trips
 * and wait are the largest of theirs, and their SQL time, rows and statements the sums. A read without
 * a figure (not signed in; rows and statements in production) adds nothing to it.
 */
export function alongsideFigures(values: (string | undefined)[]): D1Figures {
  const parsed = values.filter((v): v is string => Boolean(v)).map(timingFigures);
  const max = (figure: keyof D1Figures) => Math.max(0, ...parsed.map((p) => p[figure] ?? 0));
  const sum = (figure: keyof D1Figures) => parsed.reduce((n, p) => n + (p[figure] ?? 0), 0);
  return { sqlMs: sum("sqlMs"), durationMs: max("durationMs"), rowsRead: sum("rowsRead"), queries: sum("queries"), unmetered: sum("unmetered"), trips: max("trips") };
}
