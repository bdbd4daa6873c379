// The shared request behaviour of every product call (docs/product/api.md#dashboard-counts, docs/product/errors-and-texts.md#error-answers).
import type { ApiErrorBody } from "@shared/api-error";
import { BATCH_PATH, type BatchResponse } from "@shared/batch";
import { BOOKMARK_HEADER, formatBookmarks, mergeBookmarks, parseBookmarks, type Bookmarks } from "@shared/d1-bookmarks";
import type { ApiAnswer, ApiMethod, ApiUrl } from "@shared/schemas/answers";
import { yieldToBrowser } from "./idle";

type HttpMethod = ApiMethod;

// The access token of the current session, kept current by the auth provider on
// sign-in, token refresh and sign-out events. Null when signed out.
let accessToken: string | null = null;
const tokenListeners = new Set<(token: string | null) => void>();

export function setAccessToken(token: string | null) {
  const changed = token !== accessToken;
  accessToken = token;
  if (changed) for (const listener of tokenListeners) listener(token);
}

/** Follows sign-in, token refresh and sign-out (the live feed opens and closes with them); returns the unsubscribe. */
export function onAccessTokenChange(listener: (token: string | null) => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

export function getAccessToken() {
  return accessToken;
}

// Per database, the newest D1 bookmark an answer carried (decision 052): sent with every request so
// the worker reads from a replica at least that recent, and this tab sees its own writes. Kept in
// sessionStorage too, so a reload does not step back to an older copy.
const BOOKMARK_STORE = "d1-bookmarks";
let bookmarks: Bookmarks = readStoredBookmarks();

function readStoredBookmarks(): Bookmarks {
  try {
    return parseBookmarks(sessionStorage.getItem(BOOKMARK_STORE));
  } catch {
    return {};
  }
}

/**
 * Keeps the newer bookmark per database: answers of requests made together arrive in any order.
 * Exported for the profile's early request, which is sent before this client has its token.
 */
export function keepBookmarks(res: Response) {
  const header = res.headers?.get(BOOKMARK_HEADER);
  if (!header) return;
  bookmarks = mergeBookmarks(bookmarks, parseBookmarks(header));
  try {
    sessionStorage.setItem(BOOKMARK_STORE, formatBookmarks(bookmarks) ?? "");
  } catch {
    // Storage full or refused: the bookmarks still travel for this page's life.
  }
}

/** The bookmarks sent with the next request (tests read and reset them). */
export function currentBookmarks(): Bookmarks {
  return bookmarks;
}

export function resetBookmarks() {
  bookmarks = {};
  try {
    sessionStorage.removeItem(BOOKMARK_STORE);
  } catch {
    // nothing stored
  }
}

/**
 * A non-OK answer. `message` is "<status>: <body text or status text>" (docs/product/errors-and-texts.md#error-answers); `status` and
 * the body read as our error shape (null when it is not one: a proxy page, plain text) are there
 * so no caller has to take the message apart again.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;
  readonly body: ApiErrorBody | null;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = "ApiError";
    this.status = status;
    this.bodyText = bodyText;
    this.body = parseErrorBody(bodyText);
  }
}

function parseErrorBody(text: string): ApiErrorBody | null {
  try {
    return readErrorBody(JSON.parse(text));
  } catch {
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || typeof v === "string";

/**
 * `apiErrorBody` (shared/api-error.ts) checked by hand: this helper is on every page, and the
 * schema would bring zod onto the first page with it (decision 023). A test holds the two to the
 * same answers.
 */
export function readErrorBody(value: unknown): ApiErrorBody | null {
  if (!isRecord(value) || typeof value.error !== "string" || typeof value.code !== "string") return null;
  if (!optionalString(value.field) || !optionalString(value.requestId)) return null;
  const issues = value.issues;
  if (
    issues !== undefined &&
    !(Array.isArray(issues) && issues.every((i) => isRecord(i) && typeof i.field === "string" && typeof i.message === "string"))
  ) {
    return null;
  }
  return value as ApiErrorBody;
}

async function throwIfNotOk(res: Response) {
  if (res.ok) return;
  throw new ApiError(res.status, res.statusText, await res.text().catch(() => ""));
}

function headersFor(hasBody: boolean): Record<string, string> {
  // A missing token is tolerated: an empty bearer is sent.
  const headers: Record<string, string> = {
    Authorization: `Bearer ${accessToken ?? ""}`,
  };
  if (hasBody) headers["Content-Type"] = "application/json";
  const bookmark = formatBookmarks(bookmarks);
  if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
  return headers;
}

/** Sends one product call; resolves with the OK response, throws `ApiError` on any other. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  // A page starts its reads together, in the effects of one commit; each fetch() costs the main
  // thread a few milliseconds on a phone, so each starts in its own task (decision 030).
  if (method === "GET") await yieldToBrowser();
  return send(method, url, body, signal);
}

/**
 * A GET sent in the caller's task, without yielding first, read as JSON: for a read the page's first
 * batch did not carry (decision 062), where a yield would wait for the whole entry to run. The
 * answer's type is the reader's to know.
 */
export async function apiGetAtOnce(url: string): Promise<unknown> {
  return (await send("GET", url)).json();
}

/**
 * Several GETs sent at once as one request (POST /api/batch, decision 064), in the caller's task:
 * for the reads the entry's start sends before the app renders (web/src/boot/early-requests.ts).
 * Answers each URL's read as `apiGetAtOnce` would (its bookmark kept, a refusal thrown as ApiError).
 * A read the batch did not carry, a read asked for a second time, and every read when the batch
 * itself fails, is sent alone.
 */
export function apiGetAllAtOnce(urls: readonly string[]): (url: string) => Promise<unknown> {
  const answers = sendBatch(urls);
  return async (url) => {
    const carried = await answers;
    const res = carried?.get(url);
    if (!res) return apiGetAtOnce(url);
    carried!.delete(url);
    await throwIfNotOk(res);
    return res.json();
  };
}

/** Statuses a Response cannot be built with a body for, and those outside what fetch() answers. */
const carriedStatus = (status: number) => status >= 200 && status <= 599 && status !== 204 && status !== 205 && status !== 304;

/** The batch's answers by URL; null when the batch itself failed or could not be reached. */
async function sendBatch(urls: readonly string[]): Promise<Map<string, Response> | null> {
  try {
    const res = await send("POST", BATCH_PATH, { requests: urls });
    const { responses } = (await res.json()) as BatchResponse;
    const carried = new Map<string, Response>();
    urls.forEach((url, i) => {
      const answer = responses?.[i];
      // 413: too large or not JSON to carry; the read is asked for alone.
      if (!answer || answer.status === 413 || !carriedStatus(answer.status)) return;
      const one = new Response(answer.body, { status: answer.status, headers: answer.headers });
      keepBookmarks(one);
      carried.set(url, one);
    });
    return carried;
  } catch {
    return null;
  }
}

async function send(method: HttpMethod, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    headers: headersFor(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: "include",
    signal,
  });
  // A refusal too: the request may have written before it failed.
  keepBookmarks(res);
  await throwIfNotOk(res);
  return res;
}

/**
 * `apiRequest` and read the JSON answer, typed by `shared/schemas/answers.ts` from the method and
 * the URL: the URL must be one the map names (a template literal fills a ":param"), and no caller
 * names the answer's type. The cast below is the one place the SPA trusts the worker's answer.
 */
export async function apiJson<M extends HttpMethod, U extends ApiUrl<M>>(method: M, url: U, body?: unknown): Promise<ApiAnswer<M, U>> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as ApiAnswer<M, U>;
}

/** The server's own words for a failure: our error body's `error`, else a plain-text body. */
export function serverMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.body) return err.body.error || undefined;
  const text = err.bodyText.trim();
  // A JSON body of another shape or an HTML error page is nothing to show a person.
  return text && !text.startsWith("<") && !text.startsWith("{") ? text : undefined;
}

/** The message to show a person: the server's words, a local failure's own message, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return serverMessage(err) ?? fallback;
  return err instanceof Error && err.message ? err.message : fallback;
}
