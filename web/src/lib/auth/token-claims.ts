// What a stored access token says about its account, read without verifying it: enough to choose
// which requests a page may start before the profile has answered (decision 062). The server checks
// every request's token itself, so a forged or stale claim costs a refused request, never data.
import type { CurrentUserView } from "@shared/schemas/auth";

/** The account's id and the flags that choose a page's sections, as the token claims them. */
export type ClaimedViewer = Pick<CurrentUserView, "id" | "shopwindows_info" | "call_app">;

function base64UrlJson(part: string): unknown {
  const base64 = part.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

const flagOn = (v: unknown) => v === true || v === "true" || v === 1;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `sub` and the `app_metadata` flags of a JWT's payload (a flag is on as the server reads it:
 * true, "true" or 1); null for anything that is not a JWT with a subject.
 */
export function claimedViewer(token: string): ClaimedViewer | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload = base64UrlJson(parts[1]);
    if (!isRecord(payload) || typeof payload.sub !== "string" || !payload.sub) return null;
    const flags = isRecord(payload.app_metadata) ? payload.app_metadata : {};
    return { id: payload.sub, shopwindows_info: flagOn(flags.shopwindows_info), call_app: flagOn(flags.call_app) };
  } catch {
    return null;
  }
}
