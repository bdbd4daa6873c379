// Phone numbers of the signed-in account (docs/product/api.md#phone-numbers "Phone numbers"): the telephony provider's
// health, the account's numbers, the purchase search, buying, and assigning numbers to agents.
import { requirePaidPlan } from "../services/plans";
import { inOrder } from "../services/in-order";
import type { BatchItem } from "drizzle-orm/batch";
import { type AssignNumberResponse, type AvailableNumbersResponse, type MyNumbersResponse, type TelephonyHealth } from "@shared/schemas/phone-numbers";
import { currentUser, requireUser } from "../middleware/auth";
import {
  assignNumber,
  buyNumber,
  listMyNumbers,
  numberOfferStatements,
  requireNumberOffer,
  searchAvailableNumbers,
  unassignNumber,
} from "../services/phone-numbers";
import { DeclaredRoutes } from "./serve";

/** /api/twilio (the spec's path for phone numbers) */
export const phoneNumberRoutes = new DeclaredRoutes()
  .under("/api/twilio/*", requireUser)
  .serve("GET /api/twilio/health", async (c) => {
    const telephony = c.var.providers.telephony;
    const { ok, message } = await telephony.health();
    const body: TelephonyHealth = { ok, message, provider: telephony.kind };
    return c.json(body);
  })
  .serve("GET /api/twilio/my-numbers", async (c) => {
    const body: MyNumbersResponse = { numbers: await listMyNumbers(c.var.db, currentUser(c).id) };
    return c.json(body);
  })
  .serve("GET /api/twilio/available-numbers", async (c) => {
    const q = c.req.valid("query");
    const numbers = await searchAvailableNumbers(c.var.providers.telephony, {
      country: q.country,
      areaCode: q.areaCode,
      limit: q.limit,
      sms: q.sms,
      voice: q.voice,
    });
    // Only numbers a search offered can be bought by the account that searched.
    const userId = currentUser(c).id;
    const offers = numberOfferStatements(c.var.db, userId, numbers.map((n) => n.phoneNumber));
    await c.var.db.batch(offers as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    const body: AvailableNumbersResponse = { numbers };
    return c.json(body);
  })
  .serve("POST /api/twilio/buy", async (c) => {
    const { providers, db, config } = c.var;
    const user = currentUser(c);
    // The plan, then the search's offer: read together with the purchase's own first reads, their
    // refusals answering in this order.
    const plan = requirePaidPlan(db, user.id, { isAdmin: user.isAdmin });
    const offered = requireNumberOffer(db, user.id, c.req.valid("json").phoneNumber);
    const result = await buyNumber(
      { db, config, telephony: providers.telephony, voice: providers.voice },
      user.id,
      c.req.valid("json"),
      inOrder(plan, offered),
    );
    return c.json(result);
  })
  .serve("POST /api/twilio/assign-number", async (c) => {
    const { providers, db } = c.var;
    const number = await assignNumber({ db, voice: providers.voice }, currentUser(c).id, c.req.valid("json"));
    const body: AssignNumberResponse = { success: true, number };
    return c.json(body);
  })
  .serve("POST /api/twilio/unassign-number", async (c) => {
    const { providers, db } = c.var;
    const number = await unassignNumber({ db, voice: providers.voice }, currentUser(c).id, c.req.valid("json"));
    const body: AssignNumberResponse = { success: true, number };
    return c.json(body);
  });
