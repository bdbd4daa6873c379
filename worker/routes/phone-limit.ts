// The system-wide phone-number limit per account (docs/product/screens-and-routes.md#roles-and-flags, docs/product/constants.md#business-constants): every signed-in user reads it
// (the purchase usage bar), only admins change it.
import { type PhoneLimitResponse } from "@shared/schemas/phone-numbers";
import { auditStatement } from "../services/admin/audit-log";
import { adminActor } from "../context/request-deps";
import { getPhoneNumberLimit, phoneLimitStatement } from "../services/phone-numbers";
import { DeclaredRoutes } from "./serve";

export const phoneLimitRoutes = new DeclaredRoutes()
  .serve("GET /api/admin/config/phone-limit", async (c) => {
    const body: PhoneLimitResponse = { phoneNumberLimit: await getPhoneNumberLimit(c.var.db) };
    return c.json(body);
  })
  .serve("PUT /api/admin/config/phone-limit", async (c) => {
    const { phoneNumberLimit } = c.req.valid("json");
    const db = c.var.db;
    const before = await getPhoneNumberLimit(db);
    // The change and its audit entry commit together.
    await db.batch([
      phoneLimitStatement(db, phoneNumberLimit),
      auditStatement(db, adminActor(c), "set_phone_limit", null, { before, after: phoneNumberLimit }),
    ]);
    const body: PhoneLimitResponse = { phoneNumberLimit };
    return c.json(body);
  });
