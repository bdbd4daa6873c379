// A confirmation link followed with Supabase lands on /auth#access_token=…&type=signup (or
// email_change): GoTrue's implicit-flow redirect. docs/product/README.md#states-and-flows goes from there to 'Email Confirmed!'
// and then the Sign In tab, so the page reads the address, takes the tokens out of the URL and ends
// the session the link opened instead of adopting it.

const CONFIRMATION_TYPES = new Set(["signup", "email_change", "invite", "magiclink"]);

export type ConfirmationLanding = { email: string; accessToken: string };

/** The confirmed address and the link's access token, or null when the fragment is no confirmation. */
export function readConfirmationLanding(hash: string): ConfirmationLanding | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const accessToken = params.get("access_token");
  if (!accessToken || !CONFIRMATION_TYPES.has(params.get("type") ?? "")) return null;
  let email = "";
  try {
    // Read for display only: the server never trusts it.
    const payload = accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, "="))) as { email?: unknown };
    if (typeof claims.email === "string") email = claims.email;
  } catch {
    // An unreadable token still confirms; the email is then asked on the Sign In tab.
  }
  return { email, accessToken };
}

/** Replaces the current history entry with the same address without its fragment. */
export function stripFragment() {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, "", `${pathname}${search}`);
}
