// What every browser journey gets, and the few helpers they share.
// A journey is a file `e2e/<name>.journey.ts` whose default export is a `Journey`; run.mjs finds it.
import type { BrowserContext, Page } from "playwright-core";
import { AUTH_TEXT } from "../shared/messages.ts";

export type JourneyContext = {
  /** A fresh page in a fresh browser context (no cookies, no storage) with baseURL set. */
  page: Page;
  context: BrowserContext;
  baseUrl: string;
};

export type Journey = {
  name: string;
  /** Longer than the default minute, for journeys that walk every screen. */
  timeoutMs?: number;
  run(ctx: JourneyContext): Promise<void>;
};

/** The accounts `scripts/seed.mjs` creates (see the README's quick start). */
export const DEMO = {
  password: "demo-password-1",
  admin: "admin@demo.local",
  staff: "staff@demo.local",
  customer: "customer@demo.local",
} as const;

let counter = 0;
/** An address no other journey or run has used; the state dir is fresh per run, but journeys share it. */
export function uniqueEmail(prefix = "e2e") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

/** Waits until an element with exactly this text is visible (screen-reader-only copies do not count). */
export async function seeText(page: Page, text: string) {
  await page.getByText(text, { exact: true }).filter({ visible: true }).first().waitFor();
}

/** Signs in through the 'Log in' panel (/auth?login=1) and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string = DEMO.password) {
  await page.goto("/auth?login=1");
  const form = page.getByRole("form", { name: AUTH_TEXT.signInTab });
  await form.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
  await form.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(password);
  await form.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }).click();
  await seePath(page, "/dashboard");
}

/** Waits until the page's path (without query) matches. */
export async function seePath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname);
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A response's JSON body ({} when empty); a status outside 2xx throws with the body. */
export async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text}`);
  return text ? JSON.parse(text) : {};
}

/** Reads until `ok` holds (what goes through the queue or a cron arrives later), at most a minute. */
export async function waitFor<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean) {
  for (let i = 0; i < 120; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}
