// Aircall adapter: reads calls through Aircall's REST API v1 (Basic auth with the API ID and token)
// for the backfill, and reads webhooks with the shared protocol. A failing Aircall becomes
// providerError("Aircall", ...), never a silent fallback.
import { z } from "zod";
import { providerError } from "../../lib/errors";
import { fetchFailure, providerSignal } from "../timeout";
import { readAircallEvent } from "./aircall-events";
import { aircallCallSchema, toCentreCall } from "./aircall-shapes";
import type { CallCentrePort, CallWindow, CentreCallPage, CentreEvent } from "./port";

export const AIRCALL_DEFAULT_BASE_URL = "https://api.aircall.io";
/** Aircall's largest page. */
export const AIRCALL_PER_PAGE = 50;
/** Aircall lists at most this many calls of one query (page × per_page); larger windows must be split. */
export const AIRCALL_MAX_LISTED = 10_000;

export type AircallSettings = {
  apiId: string;
  apiToken: string;
  baseUrl?: string;
  /** Retries of one request after a 429; then the rate limit reaches the caller as a provider error. */
  maxRetries?: number;
  /** Longest wait honoured for one 429; a longer Retry-After ends the attempt instead of stalling the job. */
  maxWaitMs?: number;
  fetch?: typeof fetch;
  /** Milliseconds one request may take (default DEFAULT_PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Tests observe the waits instead of sleeping through them. */
  sleep?: (ms: number) => Promise<void>;
};

const pageSchema = z.looseObject({
  calls: z.array(aircallCallSchema),
  meta: z.looseObject({
    total: z.number().int().nonnegative(),
    current_page: z.number().int().positive().optional(),
    next_page_link: z.string().nullish(),
  }),
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long a 429 asks us to wait: `Retry-After` in seconds or as an HTTP date, else Aircall's own
 * `X-AircallApi-Reset` (unix seconds of the window's end), else one second.
 */
export function rateLimitWaitMs(headers: Headers, now = Date.now()): number {
  const retryAfter = headers.get("retry-after");
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (retryAfter.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = Number(headers.get("x-aircallapi-reset"));
  if (reset > 0) return Math.max(0, reset * 1000 - now);
  return 1000;
}

export class AircallCallCentre implements CallCentrePort {
  readonly kind = "aircall" as const;
  readonly simulator = null;
  private readonly base: string;

  constructor(private settings: AircallSettings) {
    this.base = (settings.baseUrl ?? AIRCALL_DEFAULT_BASE_URL).replace(/\/+$/, "");
  }

  readEvent(headers: Headers, rawBody: string, token: string | null, now: Date): Promise<CentreEvent> {
    return readAircallEvent(headers, rawBody, token, now);
  }

  private async get(path: string): Promise<unknown> {
    const { maxRetries = 3, maxWaitMs = 30_000 } = this.settings;
    const authorization = `Basic ${btoa(`${this.settings.apiId}:${this.settings.apiToken}`)}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await (this.settings.fetch ?? fetch)(`${this.base}${path}`, {
          headers: { authorization, accept: "application/json" },
          signal: providerSignal(this.settings.timeoutMs),
        });
      } catch (e) {
        throw providerError("Aircall", fetchFailure(e));
      }
      if (res.status === 429) {
        await res.body?.cancel();
        const wait = rateLimitWaitMs(res.headers);
        if (attempt >= maxRetries || wait > maxWaitMs) {
          throw providerError("Aircall", `429 rate limited (retry after ${Math.ceil(wait / 1000)} s)`);
        }
        await (this.settings.sleep ?? sleep)(wait);
        continue;
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        throw providerError("Aircall", fetchFailure(e));
      }
      if (!res.ok) throw providerError("Aircall", `${res.status} ${errorMessage(text) || res.statusText}`);
      try {
        return JSON.parse(text);
      } catch {
        throw providerError("Aircall", `unreadable answer to GET ${path.split("?")[0]}`);
      }
    }
  }

  async listCalls(window: CallWindow, page: number): Promise<CentreCallPage> {
    // Aircall's `to` is inclusive; the window is half-open, so it ends one second earlier.
    const q = new URLSearchParams({
      from: String(Math.floor(window.from.getTime() / 1000)),
      to: String(Math.ceil(window.to.getTime() / 1000) - 1),
      order: "asc",
      per_page: String(AIRCALL_PER_PAGE),
      page: String(page),
    });
    const parsed = pageSchema.safeParse(await this.get(`/v1/calls?${q}`));
    if (!parsed.success) throw providerError("Aircall", "unexpected call list shape");
    const { calls, meta } = parsed.data;
    return { calls: calls.map((c) => toCentreCall(c)), page, total: meta.total, hasMore: Boolean(meta.next_page_link) };
  }
}

/** Aircall errors read `{ error, troubleshoot }` (sometimes `message`). */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; troubleshoot?: unknown };
    const parts = [body.error ?? body.message, body.troubleshoot].filter((p): p is string => typeof p === "string" && p !== "");
    if (parts.length) return parts.join(": ");
  } catch {
    // not JSON: the raw text below
  }
  return text.slice(0, 300);
}
