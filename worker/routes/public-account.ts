// Public account calls (docs/product/api.md#api) that answer without a session. Rate limited per client address
// (an IPv6 /64) and per (email, address), so nobody can exhaust a victim's email. The existence check,
// the confirmation check and the activation resend answer in the same shape either way, and no sooner
// than one floor (EMAIL_ANSWER_MIN_MS), so their time does not tell either; they carry no
// Server-Timing, whatever token comes with them (server-timing.ts).
// (The profile update shares the spec's /admin/public prefix but needs sign-in: routes/profile.ts.)
import { createMiddleware } from "hono/factory";
import { type EmailConfirmedResponse, type UserExistsResponse } from "@shared/schemas/auth";
import { type AccountActionResponse } from "@shared/schemas/billing";
import { resendActivation, setPasswordWithProof } from "../services/billing";
import { billingDeps } from "../context/request-deps";
import type { AppEnv } from "../app-env";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../db/rate-limit";
import { DeclaredRoutes } from "./serve";

/**
 * The answers about an email that must not tell by their timing whether it has an account (the
 * existence check, the confirmation check, the activation resend) leave at least this long after
 * the request arrived.
 */
export const EMAIL_ANSWER_MIN_MS = 120;

/** Holds the route's answer, whatever it is, until EMAIL_ANSWER_MIN_MS after the request arrived. */
const answerNoSooner = createMiddleware<AppEnv>(async (_c, next) => {
  const started = Date.now();
  await next();
  const wait = EMAIL_ANSWER_MIN_MS - (Date.now() - started);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
});

export const publicAccountRoutes = new DeclaredRoutes()
  .serve("POST /api/admin/public/user-exists", { before: [answerNoSooner] }, async (c) => {
    const { email } = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
    ]);
    const exists = await c.var.providers.identity.userExists(email);
    return c.json({ success: true, exists } satisfies UserExistsResponse);
  })
  // "I've Confirmed" (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): whether the address just registered has been confirmed. The account
  // id its sign-up answered with is the proof; any other id answers false.
  .serve("POST /api/admin/public/email-confirmed", { before: [answerNoSooner] }, async (c) => {
    const { email, userId } = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
    ]);
    const confirmed = await c.var.providers.identity.emailConfirmed(userId, email);
    return c.json({ success: true, confirmed } satisfies EmailConfirmedResponse);
  })
  // The first password after payment: the email alone is never enough (docs/product/design.md#safer-than-the-brief, ADR 021).
  .serve("POST /api/admin/public/update-user-password", async (c) => {
    const body = c.req.valid("json");
    // The limits are counted with the first reads (one round trip) and still answer first.
    const allowed = enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    return c.json((await setPasswordWithProof(billingDeps(c), body, allowed)) satisfies AccountActionResponse);
  })
  // A pending account is sent its link, any other email nothing; both answer alike, no sooner than the floor.
  .serve("POST /api/admin/public/resend-activation", { before: [answerNoSooner] }, async (c) => {
    const { email } = c.req.valid("json");
    const allowed = enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
    ]);
    return c.json((await resendActivation(billingDeps(c), email, allowed)) satisfies AccountActionResponse);
  });
