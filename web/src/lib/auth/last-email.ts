// The last-used email, kept in this browser to prefill the login form.
import { LAST_EMAIL_KEY } from "@shared/constants";

export function readLastEmail(): string {
  try {
    return window.localStorage.getItem(LAST_EMAIL_KEY) ?? "";
  } catch {
    return ""; // storage blocked (private mode, policy)
  }
}

export function rememberEmail(email: string) {
  try {
    window.localStorage.setItem(LAST_EMAIL_KEY, email.trim());
  } catch {
    // storage blocked: prefill is a convenience only
  }
}
