// The shared request behaviour of every product call (spec 1 §7, §8).
import type { QueryFunction } from "@tanstack/react-query";

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

// The access token of the current session, kept current by the auth provider on
// sign-in, token refresh and sign-out events. Null when signed out.
let accessToken: string | null = null;

export function setAccessToken(token: string | null) {
  accessToken = token;
}

export function getAccessToken() {
  return accessToken;
}

/** Any non-OK answer becomes `Error("<status>: <body text or status text>")`. */
async function throwIfNotOk(res: Response) {
  if (res.ok) return;
  const text = (await res.text().catch(() => "")) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

function headersFor(hasBody: boolean): Record<string, string> {
  // A missing token is tolerated: an empty bearer is sent.
  const headers: Record<string, string> = { Authorization: `Bearer ${accessToken ?? ""}` };
  if (hasBody) headers["Content-Type"] = "application/json";
  return headers;
}

/** Sends one product call; resolves with the OK response, throws on any other. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    headers: headersFor(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: "include",
  });
  await throwIfNotOk(res);
  return res;
}

/** `apiRequest` and read the JSON answer. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  return (await res.json()) as T;
}

type UnauthorizedBehavior = "throw" | "returnNull";

/** A query function that GETs the first element of the query key. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), {
      headers: headersFor(false),
      credentials: "include",
      signal,
    });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

export const defaultQueryFn = getQueryFn<unknown>({ on401: "throw" });

/**
 * The message to show a person for a failed call: the server's `error` field when
 * the body is our JSON error shape, else the body text, else the fallback.
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (!(err instanceof Error) || !err.message) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(err.message);
  if (!match) return err.message;
  const text = match[1].trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof parsed.error === "string" && parsed.error) return parsed.error;
    if (typeof parsed.message === "string" && parsed.message) return parsed.message;
  } catch {
    // not JSON: the text itself is the message
  }
  return text && !text.startsWith("<") ? text : fallback;
}

/** The HTTP status carried by an `apiRequest` error, if any. */
export function errorStatus(err: unknown): number | null {
  if (!(err instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(err.message);
  return match ? Number(match[1]) : null;
}
