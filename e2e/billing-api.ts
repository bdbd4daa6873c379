// Journey set-up through the app's own HTTP API: pays for the basic plan on the local checkout page
// with the test card, since activation, numbers and test calls need a subscription (ADR 022).
import type { Page } from "playwright-core";
import { check } from "./harness.ts";

/**
 * A confirmed, subscribed account of the journey's own (sign-up, the local mailbox's confirmation
 * link, the test card), so a journey starts from an empty account that may activate agents and buy
 * numbers; what the journey proves is the UI after it.
 */
export async function registerSubscribedAccount(page: Page, email: string, password: string, who: { username: string; company: string }) {
  const link = await registerConfirmedAccount(page, email, password, who);
  await subscribeWithTestCard(new URL(link).origin, email);
}

/** A confirmed account without a plan, as one registered on /auth is; returns the confirmation link. */
export async function registerConfirmedAccount(page: Page, email: string, password: string, who: { username: string; company: string }) {
  const signup = await page.request.post("/auth/v1/signup", {
    data: { email, password, data: { username: who.username, name: who.username, company: who.company } },
  });
  check(signup.ok(), `sign-up should succeed, got ${signup.status()}: ${await signup.text()}`);
  const mailbox = await page.request.get(`/api/local/mailbox?email=${encodeURIComponent(email)}`);
  const { messages } = (await mailbox.json()) as { messages: { link: string | null }[] };
  const link = messages.find((m) => m.link)?.link;
  check(link, "the confirmation mail should carry a link");
  // The link's page spends its one-time token (in the fragment) with a POST, as this does.
  const fragment = new URLSearchParams(new URL(link).hash.slice(1));
  const confirmed = await page.request.post("/auth/v1/verify", { data: { type: fragment.get("type"), token_hash: fragment.get("token_hash") } });
  check(confirmed.ok(), `the confirmation link should work, got ${confirmed.status()}: ${await confirmed.text()}`);
  return link;
}

/** Pays for a plan on the local checkout with the test card: the basic plan unless a price is given. */
export async function subscribeWithTestCard(baseUrl: string, email: string, priceId = "price_local_basic_month") {
  const checkout = await fetch(`${baseUrl}/api/stripe/create-checkout-session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      priceId,
      quantity: 1,
      successUrl: `${baseUrl}/payments/success`,
      cancelUrl: `${baseUrl}/payments/cancel`,
      customerEmail: email,
    }),
  });
  if (!checkout.ok) throw new Error(`the checkout should start, got ${checkout.status}: ${await checkout.text()}`);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await fetch(`${url}/pay`, { method: "POST", body: new URLSearchParams({ card: "4242424242424242" }), redirect: "manual" });
  if (paid.status !== 303) throw new Error(`the test card should pay, got ${paid.status}`);
}
