// Public account calls (spec 2 §7). Rate limited per client address and per email;
// the existence check does the same work and answers in the same shape either way.
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { updateUserProfileBody, userExistsBody } from "@shared/schemas/auth";
import { profiles } from "../db/schema";
import type { AppEnv } from "../env";
import { conflict, forbidden } from "../lib/errors";
import { validate } from "../lib/validate";
import { currentUser, requireUser } from "../middleware/auth";
import { clientAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../middleware/rate-limit";

/** Existence answers take at least this long, so timing does not tell the two cases apart. */
export const USER_EXISTS_MIN_MS = 120;

export const publicAccountRoutes = new Hono<AppEnv>()
  .post("/user-exists", validate("json", userExistsBody), async (c) => {
    const started = Date.now();
    const { email } = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, email.toLowerCase()],
    ]);
    const exists = await c.var.providers.identity.userExists(email);
    const wait = USER_EXISTS_MIN_MS - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return c.json({ success: true, exists });
  })
  .post("/update-user-profile", requireUser, validate("json", updateUserProfileBody), async (c) => {
    const user = currentUser(c);
    const body = c.req.valid("json");
    // Only the signed-in account's own profile, whatever email the body names.
    if (body.email.toLowerCase() !== user.email.toLowerCase()) {
      throw forbidden("You can only update your own profile");
    }
    const db = c.var.db;
    if (body.newEmail && body.newEmail.toLowerCase() !== user.email.toLowerCase()) {
      if (await c.var.providers.identity.userExists(body.newEmail)) throw conflict("That email is already in use", "newEmail");
      await c.var.providers.identity.updateEmail(user.id, body.newEmail);
    }
    const [row] = await db
      .update(profiles)
      .set({
        username: body.username,
        ...(body.company !== undefined ? { company: body.company } : {}),
        ...(body.newEmail ? { email: body.newEmail.toLowerCase() } : {}),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(profiles.id, user.id))
      .returning();
    return c.json({ success: true, profile: { username: row.username, company: row.company, email: row.email } });
  });
