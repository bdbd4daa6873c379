// Leads and customers (docs/product/api.md#api): the checkout's lead form (public, rate limited) and the customer
// record (the signed-in owner's own, or any for an admin).
import { type CustomerResponse, type LeadCreatedResponse } from "@shared/schemas/billing";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../db/rate-limit";
import { currentUser } from "../middleware/auth";
import { createLead, customerByEmail, upsertCustomerRecord } from "../services/billing";
import { DeclaredRoutes } from "./serve";

export const leadRoutes = new DeclaredRoutes()
  .serve("POST /api/leads/leads", async (c) => {
    const body = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    return c.json((await createLead(c.var.db, body)) satisfies LeadCreatedResponse, 201);
  })
  .serve("GET /api/leads/customers/by-email", async (c) =>
    c.json((await customerByEmail(c.var.db, currentUser(c), c.req.valid("query").email)) satisfies CustomerResponse),
  )
  .serve("POST /api/leads/customers", async (c) =>
    c.json((await upsertCustomerRecord(c.var.db, currentUser(c), c.req.valid("json"))) satisfies CustomerResponse),
  );
