// The first password after payment with the Supabase identity adapter (against the Supabase
// stand-in) and the local checkout: a paid session proves only the account it created. Supabase does
// not say whether an account has a password, so every account that never signed in (a registration
// still unconfirmed, a trial) would otherwise be open to a stranger's session with its email.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { app } from "../app";
import { LOCAL_CHECKOUT_PATH } from "../providers/billing/local";
import { BILLING_TEXT } from "@shared/messages";
import { call, uniqueEmail } from "../test/helpers";
import { SUPABASE_STANDIN } from "../test/standins/supabase";

const standin = inject("standins").supabase;
const ORIGIN = "http://localhost";
let n = 0;

function project() {
  const prefix = `/p/billing-${Date.now().toString(36)}-${++n}`;
  const bindings = { SUPABASE_URL: `${standin}${prefix}`, SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey, SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey };
  const user = async (email: string) => {
    const state = (await (await fetch(`${standin}/test/state?project=${encodeURIComponent(prefix)}`)).json()) as { users: { id: string; email: string; has_password?: boolean }[] };
    return state.users.find((u) => u.email === email.toLowerCase());
  };
  /** An account created in Supabase outside the purchase (a sign-up not yet confirmed): it has never signed in. */
  const register = (email: string) =>
    fetch(`${standin}${prefix}/auth/v1/admin/users`, {
      method: "POST",
      headers: { apikey: SUPABASE_STANDIN.serviceRoleKey, authorization: `Bearer ${SUPABASE_STANDIN.serviceRoleKey}`, "content-type": "application/json" },
      body: JSON.stringify({ email, email_confirm: false }),
    });
  return { bindings, user, register };
}

type Project = ReturnType<typeof project>;

async function paidSession(p: Project, email: string) {
  const created = await call("/api/stripe/create-checkout-session", {
    method: "POST",
    bindings: p.bindings,
    json: { priceId: "price_local_basic_month", quantity: 1, successUrl: `${ORIGIN}/payments/success?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${ORIGIN}/payments/cancel`, customerEmail: email },
  });
  expect(created.status).toBe(200);
  const res = await app.request(
    `${ORIGIN}${LOCAL_CHECKOUT_PATH}/${created.body.sessionId}/pay`,
    { method: "POST", body: new URLSearchParams({ card: "4242424242424242", name: "Stranger" }), headers: { "cf-connecting-ip": "10.7.7.7" } },
    { ...env, ...p.bindings },
  );
  expect(res.status).toBe(303);
  return created.body.sessionId as string;
}

const setPassword = (p: Project, email: string, sessionId: string) =>
  call("/api/admin/public/update-user-password", { method: "POST", bindings: p.bindings, json: { email, password: "Taken123", sessionId } });

describe("Supabase accounts and paid sessions", () => {
  it("refuses a stranger's session for an account that never signed in", async () => {
    const p = project();
    const email = uniqueEmail("sb-victim");
    expect((await p.register(email)).status).toBe(200);
    const sessionId = await paidSession(p, email);
    expect(await setPassword(p, email, sessionId)).toMatchObject({ status: 403, body: { code: "proof_required", error: BILLING_TEXT.sessionNotCreator } });
    expect((await p.user(email))?.has_password).toBeFalsy();
  });

  it("refuses a stranger's session for a trial's account", async () => {
    const p = project();
    const email = uniqueEmail("sb-trial");
    const trial = await call("/api/stripe/start-trial", { method: "POST", bindings: p.bindings, json: { email, priceId: "price_local_basic_month", first_name: "T", last_name: "R" } });
    expect(trial.status).toBe(200);
    const sessionId = await paidSession(p, email);
    expect(await setPassword(p, email, sessionId)).toMatchObject({ status: 403, body: { error: BILLING_TEXT.sessionNotCreator } });
    expect((await p.user(email))?.has_password).toBeFalsy();
  });

  it("lets the session that created the account set its first password, once", async () => {
    const p = project();
    const email = uniqueEmail("sb-buyer");
    const sessionId = await paidSession(p, email);
    expect(await setPassword(p, email, sessionId)).toMatchObject({ status: 200 });
    expect((await p.user(email))?.has_password).toBe(true);
    expect((await setPassword(p, email, sessionId)).status).toBe(409);
  });

  it("answers a password Supabase's settings refuse with 422 naming the password, and lets the buyer try another", async () => {
    const p = project();
    const email = uniqueEmail("sb-caps");
    const sessionId = await paidSession(p, email);
    const send = (password: string) => call("/api/admin/public/update-user-password", { method: "POST", bindings: p.bindings, json: { email, password, sessionId } });
    // The policy's rule holds (8 characters, an uppercase letter, a digit); Supabase, set as the README says, also asks for a lowercase letter.
    const refused = await send("ABCDEFG1");
    expect(refused).toMatchObject({ status: 422, body: { code: "weak_password", field: "password" } });
    expect(refused.body.error).toContain("abcdefghijklmnopqrstuvwxyz");
    expect((await p.user(email))?.has_password).toBeFalsy();
    expect(await send("Abcdefg1")).toMatchObject({ status: 200 });
    expect((await p.user(email))?.has_password).toBe(true);
  });
});
