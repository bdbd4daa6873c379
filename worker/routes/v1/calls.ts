// /v1/calls: the key's account's calls, a page at a time with filters, and one call whole.
import { accountDb } from "../../context/account-db";
import { currentUser } from "../../middleware/auth";
import { getCall, listCalls } from "../../services/public-api";
import { V1DeclaredRoutes } from "./serve";

export const v1CallRoutes = new V1DeclaredRoutes()
  .serve("GET /v1/calls", async (c) => c.json(await listCalls(accountDb(c), currentUser(c).id, c.req.valid("query"))))
  .serve("GET /v1/calls/:id", async (c) => c.json(await getCall(accountDb(c), c.env.CALL_TEXT, currentUser(c).id, c.req.valid("param").id)));
