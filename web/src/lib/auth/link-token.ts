// A mailed one-time link (sign-up or email-change confirmation, activation, recovery) lands on its
// page with `#token_hash=…&type=…` in the fragment. Opening the page spends nothing: the page spends
// the token with an explicit POST /auth/v1/verify (supabase-js verifyOtp), so a mail scanner or a
// prefetch that follows the link can neither use it up nor receive a session.
import { getAppConfig } from "@web/lib/auth-client";

export const LINK_TYPES = ["signup", "invite", "recovery", "email_change"] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export type LinkToken = { tokenHash: string; type: LinkType };

/** The link's token and kind from a fragment, or null when it holds none (of the accepted kinds). */
export function readLinkToken(hash: string, accept: readonly LinkType[] = LINK_TYPES): LinkToken | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const tokenHash = params.get("token_hash");
  const type = params.get("type") as LinkType | null;
  if (!tokenHash || !type || !accept.includes(type)) return null;
  return { tokenHash, type };
}

/** Why a link could not be spent, as the identity service names it (otp_expired, otp_invalid, email_exists). */
export class LinkError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * Spends a confirmation link without keeping a session: POST /auth/v1/verify with the publishable
 * key; answers the confirmed address. A session in the answer (Supabase opens one) is ended at once,
 * since docs/product/README.md#states-and-flows goes on to the Sign In tab.
 */
export async function confirmLink(link: LinkToken): Promise<{ email: string }> {
  const { auth } = await getAppConfig();
  const res = await fetch(`${auth.url.replace(/\/+$/, "")}/auth/v1/verify`, {
    method: "POST",
    headers: { apikey: auth.anonKey, authorization: `Bearer ${auth.anonKey}`, "content-type": "application/json" },
    body: JSON.stringify({ type: link.type, token_hash: link.tokenHash }),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const code = String(body.error_code ?? body.code ?? "otp_invalid");
    throw new LinkError(code, String(body.msg ?? body.error ?? "Email link is invalid or has expired"));
  }
  const user = (body.user ?? body) as { email?: unknown };
  if (typeof body.access_token === "string") {
    const { endLinkSession } = await import("./end-link-session");
    void endLinkSession(body.access_token);
  }
  return { email: typeof user.email === "string" ? user.email : "" };
}

/** Replaces the current history entry with the same address without its fragment (the token leaves the address bar). */
export function dropFragment() {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, "", `${pathname}${search}`);
}
