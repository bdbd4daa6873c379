// Leads and customers (docs/product/api.md#api): the checkout's lead form (public, rate limited) and the customer
// record (the signed-in owner's own, or any for an admin).
import { Hono } from "hono";
import { customerByEmailQuery, leadBody, upsertCustomerBody, type CustomerResponse, type LeadCreatedResponse } from "@shared/schemas/billing";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../db/rate-limit";
import { currentUser, requireUser } from "../middleware/auth";
import { createLead, customerByEmail, upsertCustomerRecord } from "../services/billing";

export const leadRoutes = new Hono<AppEnv>()
  .post("/leads", validate("json", leadBody), async (c) => {
    const body = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    return c.json((await createLead(c.var.db, body)) satisfies LeadCreatedResponse, 201);
  })
  .get("/customers/by-email", requireUser, validate("query", customerByEmailQuery), async (c) =>
    c.json((await customerByEmail(c.var.db, currentUser(c), c.req.valid("query").email)) satisfies CustomerResponse),
  )
  .post("/customers", requireUser, validate("json", upsertCustomerBody), async (c) =>
    c.json((await upsertCustomerRecord(c.var.db, currentUser(c), c.req.valid("json"))) satisfies CustomerResponse),
  );
