// A returning visitor's first page waits for the session to be restored (GET /api/config, the
// supabase-js chunk) and only then asks for the profile, which every private page's guard awaits:
// two round trips in a row before anything of the page can render. The profile is asked for at
// start instead, with the stored session's access token, in parallel with restoring it
// (decision 027). Only a success is kept (in the query cache, where the provider's profile query
// finds it); anything else is ignored and the provider asks as before, with the session supabase-js
// restored. A token that is about to expire is not used: supabase-js refreshes it first. It sends
// the tab's D1 bookmarks and keeps the answer's, as every API request does (decision 052), so a
// reload right after a write reads that write.
// The request is sent by the entry's start (web/src/boot/early-requests.ts), before supabase-js is
// loaded.
import type { QueryClient } from "@tanstack/react-query";
import { BOOKMARK_HEADER, formatBookmarks } from "@shared/d1-bookmarks";
import type { ApiAnswers } from "@shared/schemas/answers";
import { currentBookmarks, keepBookmarks } from "@web/lib/api";
import { STORED_SESSION_KEY } from "@web/lib/stored-session";
import { currentUserKeys, PROFILE_PATH } from "./profile-key";

/** The answer of GET /api/profile, as the request helper reads it. */
type Profile = ApiAnswers["GET /api/profile"];

/** Seconds of life a stored access token must have left to be used before supabase-js sees it. */
export const EARLY_TOKEN_MARGIN_SECONDS = 120;

/** The stored session's access token, when one is stored and far enough from expiry. */
export function storedAccessToken(storage: Storage = window.localStorage, nowMs = Date.now()): string | null {
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key || !STORED_SESSION_KEY.test(key)) continue;
      const session: unknown = JSON.parse(storage.getItem(key) ?? "null");
      if (typeof session !== "object" || session === null) continue;
      const { access_token: token, expires_at: expiresAt } = session as Record<string, unknown>;
      if (typeof token !== "string" || !token || typeof expiresAt !== "number") continue;
      if (expiresAt * 1000 - nowMs < EARLY_TOKEN_MARGIN_SECONDS * 1000) continue;
      return token;
    }
  } catch {
    // Unreadable storage or a malformed entry: the provider restores the session as usual.
  }
  return null;
}

/** The early request while it is in flight: the provider's first ask joins it (joinEarlyProfile). */
let inFlight: Promise<Profile | null> | null = null;

/** The early request, answered: its profile, or null for any failure (it never rejects). */
export type EarlyProfile = Promise<Profile | null>;

/** Starts GET /api/profile with the token, if there is one, for the provider's first ask to join. */
export function askProfileEarly(token: string | null): EarlyProfile | null {
  if (!token) return null;
  const request = askEarly(token);
  inFlight = request;
  void request.then(() => {
    if (inFlight === request) inFlight = null;
  });
  return request;
}

/** Keeps the early request's profile in the query cache; resolves when done (never rejects). */
export async function keepEarlyProfile(queryClient: QueryClient, request: EarlyProfile | null): Promise<void> {
  const profile = await request;
  // A profile the provider already has (it may have been quicker) is left as it is.
  if (profile && queryClient.getQueryData(currentUserKeys.all) === undefined) queryClient.setQueryData(currentUserKeys.all, profile);
}

async function askEarly(token: string): Promise<Profile | null> {
  try {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    const bookmark = formatBookmarks(currentBookmarks());
    if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
    const res = await fetch(PROFILE_PATH, { headers });
    keepBookmarks(res);
    return res.ok ? ((await res.json()) as Profile) : null;
  } catch {
    // Offline or not JSON: the provider asks again.
    return null;
  }
}

/**
 * The provider's ask for the profile: while the early request is in flight, its answer, so a page
 * does not send the same request twice on a signed-in page's load; when it
 * failed, or none is in flight, `ask` itself.
 */
export async function joinEarlyProfile(ask: () => Promise<Profile>): Promise<Profile> {
  const early = inFlight ? await inFlight : null;
  return early ?? ask();
}
