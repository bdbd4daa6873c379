// The account id a sign-up answered with, kept in this tab (sessionStorage) while the address waits
// for its confirmation: "I've Confirmed" asks with it whether the address is confirmed yet
// (POST /api/admin/public/email-confirmed), and only who registered holds it.
const SIGN_UP_PROOF_KEY = "sign-up-proof";

export function rememberSignUp(email: string, userId: string) {
  try {
    window.sessionStorage.setItem(SIGN_UP_PROOF_KEY, JSON.stringify({ email: email.trim().toLowerCase(), userId }));
  } catch {
    // storage blocked: "I've Confirmed" then sends the person to sign in, which tells them
  }
}

/** The account id the sign-up of `email` answered with in this tab, or null. */
export function signUpProof(email: string): string | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(SIGN_UP_PROOF_KEY) ?? "null") as { email?: unknown; userId?: unknown } | null;
    return kept && kept.email === email.trim().toLowerCase() && typeof kept.userId === "string" ? kept.userId : null;
  } catch {
    return null;
  }
}
