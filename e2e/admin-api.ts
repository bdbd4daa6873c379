// Journey set-up through the app's own HTTP API (no browser): a confirmed account that has bought a
// number for AI calls, so the admin journeys have someone to delete and a number for the pool.
import { subscribeWithTestCard } from "./billing-api.ts";
import { json, uniqueEmail } from "./harness.ts";

/** Registers, confirms through the local mailbox link, pays for a plan (basic unless a price is given), signs in: the access token. */
export async function registerAccount(baseUrl: string, prefix: string, priceId?: string) {
  const email = uniqueEmail(prefix);
  const password = "Journey-pass-1";
  await json(await fetch(`${baseUrl}/auth/v1/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password, data: { username: prefix, company: `${prefix} Co` } }) }));
  const mail = await json(await fetch(`${baseUrl}/api/local/mailbox?email=${encodeURIComponent(email)}`));
  const link = (mail.messages as { link: string | null }[]).find((m) => m.link)?.link;
  if (!link) throw new Error(`no confirmation mail for ${email}`);
  // The link's page spends its one-time token (in the fragment) with a POST, as this does.
  const fragment = new URLSearchParams(new URL(link).hash.slice(1));
  await json(await fetch(`${baseUrl}/auth/v1/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: fragment.get("type"), token_hash: fragment.get("token_hash") }) }));
  // Buying a number needs a subscription (ADR 022).
  await subscribeWithTestCard(baseUrl, email, priceId);
  const session = await json(await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) }));
  return { email, token: session.access_token as string };
}

/** Buys the first number offered in an area code, imported into the voice platform. */
export async function buyNumber(baseUrl: string, token: string, areaCode: string) {
  const auth = { authorization: `Bearer ${token}` };
  const found = await json(await fetch(`${baseUrl}/api/twilio/available-numbers?areaCode=${areaCode}&limit=5`, { headers: auth }));
  const phoneNumber = found.numbers[0].phoneNumber as string;
  await json(await fetch(`${baseUrl}/api/twilio/buy`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ phoneNumber, createInVapi: true }) }));
  return phoneNumber;
}
