// The system-wide phone-number limit per account (spec 2 §6, §9): every signed-in user reads it
// (the purchase usage bar), only admins change it.
import { Hono } from "hono";
import { phoneLimitBody, type PhoneLimitResponse } from "@shared/schemas/phone-numbers";
import type { AppEnv } from "../env";
import { validate } from "../lib/validate";
import { requireAdmin, requireUser } from "../middleware/auth";
import { getPhoneNumberLimit, setPhoneNumberLimit } from "../services/phone-numbers";

export const phoneLimitRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => {
    const body: PhoneLimitResponse = { phoneNumberLimit: await getPhoneNumberLimit(c.var.db) };
    return c.json(body);
  })
  .put("/", requireAdmin, validate("json", phoneLimitBody), async (c) => {
    const { phoneNumberLimit } = c.req.valid("json");
    const body: PhoneLimitResponse = { phoneNumberLimit: await setPhoneNumberLimit(c.var.db, phoneNumberLimit) };
    return c.json(body);
  });
