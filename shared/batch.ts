// Several of the API's reads in one request (decision 064): POST /api/batch carries their paths and
// answers each as the API would have answered it alone. Kept free of zod: the SPA's entry imports it
// (its answer's schema is in schemas/answer-shapes.ts, imported here for types only).
import type { z } from "zod";
import type { batchAnswer, batchResponse } from "./schemas/answer-shapes";

export const BATCH_PATH = "/api/batch";

/** At most this many reads in one batch (the dashboard's first render asks for about twenty). */
export const BATCH_MAX_REQUESTS = 24;

/** A read's answer longer than this (in characters) is not carried in a batch: the client asks for it alone. */
export const BATCH_MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Paths no batch carries: the batch itself, the live socket, downloads, webhooks, ingestion and the
 * development tools. Matched against the normalised, decoded path.
 */
export const NOT_BATCHED = /^\/api\/(batch|live|export-report|webhooks|ingest|local)(\/|$)/;

/**
 * A URL's path as the router matches it: percent-decoded, so no check is passed by spelling a path
 * differently (`/api/%6cocal/…` is routed as `/api/local/…`). Null when it cannot be decoded or when
 * it encodes a `/` or `\` (which one reader would take for a separator and another would not).
 */
export function decodedPath(pathname: string): string | null {
  if (/%(2f|5c)/i.test(pathname)) return null;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/** Whether `path` is a read a batch may carry: a path under /api/ (with its query), resolved on our own origin. */
export function isBatchablePath(path: string): boolean {
  if (!path.startsWith("/api/") || path.startsWith("//") || /[\s\\#]/.test(path)) return false;
  let url: URL;
  try {
    url = new URL(path, "https://batch.invalid");
  } catch {
    return false;
  }
  const pathname = decodedPath(url.pathname);
  return url.origin === "https://batch.invalid" && pathname !== null && pathname.startsWith("/api/") && !NOT_BATCHED.test(pathname);
}

/** One read's answer: its status, the headers a client keeps (type, D1 bookmark, Server-Timing), its body as text. */
export type BatchAnswer = z.infer<typeof batchAnswer>;

/** POST /api/batch: the answers in the order of the request's paths. */
export type BatchResponse = z.infer<typeof batchResponse>;
