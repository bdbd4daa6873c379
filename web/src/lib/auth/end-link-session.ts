// Ends the session a confirmation link opened (POST /auth/v1/logout?scope=local as that session),
// so no live refresh token is left behind by a page that never uses it. Best effort.
import { getAppConfig } from "@web/lib/auth-client";

export async function endLinkSession(accessToken: string) {
  try {
    const { auth } = await getAppConfig();
    await fetch(`${auth.url.replace(/\/+$/, "")}/auth/v1/logout?scope=local`, {
      method: "POST",
      headers: { apikey: auth.anonKey, authorization: `Bearer ${accessToken}` },
    });
  } catch {
    // The session then ends at its own timeout.
  }
}
