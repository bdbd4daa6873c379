// Public account calls (spec 2 §7) that answer without a session. Rate limited per client address
// (an IPv6 /64) and per (email, address), so nobody can exhaust a victim's email; the existence check does the same work and answers in the same shape either way.
// (The profile update shares the spec's /admin/public prefix but needs sign-in: routes/profile.ts.)
import { Hono } from "hono";
import { userExistsBody, type UserExistsResponse } from "@shared/schemas/auth";
import { resendActivationBody, updateUserPasswordBody, type AccountActionResponse } from "@shared/schemas/billing";
import { resendActivation, setPasswordWithProof } from "../services/billing";
import { billingDeps } from "../middleware/request-deps";
import type { AppEnv } from "../middleware/app-env";
import { validate } from "../lib/validate";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../db/rate-limit";

/** Existence answers take at least this long, so timing does not tell the two cases apart. */
export const USER_EXISTS_MIN_MS = 120;

export const publicAccountRoutes = new Hono<AppEnv>()
  .post("/user-exists", validate("json", userExistsBody), async (c) => {
    const started = Date.now();
    const { email } = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
    ]);
    const exists = await c.var.providers.identity.userExists(email);
    const wait = USER_EXISTS_MIN_MS - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return c.json({ success: true, exists } satisfies UserExistsResponse);
  })
  // The first password after payment: the email alone is never enough (DESIGN §4, ADR 021).
  .post("/update-user-password", validate("json", updateUserPasswordBody), async (c) => {
    const body = c.req.valid("json");
    // The limits are counted with the first reads (one round trip) and still answer first.
    const allowed = enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    return c.json((await setPasswordWithProof(billingDeps(c), body, allowed)) satisfies AccountActionResponse);
  })
  .post("/resend-activation", validate("json", resendActivationBody), async (c) => {
    const { email } = c.req.valid("json");
    const allowed = enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
    ]);
    return c.json((await resendActivation(billingDeps(c), email, allowed)) satisfies AccountActionResponse);
  });
