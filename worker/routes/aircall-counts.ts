// The Aircall counts of the operations dashboard (docs/product/api.md#dashboard-counts), mounted at /api/aircall: the store
// network's calls, for users with the callApp flag (admins see all). Answered from roll-ups plus a
// live query (docs/decisions/011-rollups.md).
import {
  aircallCallCountQuery,
  aircallCountsQuery,
  type AircallOptionsResponse,
  type CountResponse,
} from "@shared/schemas/counts";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import { validate } from "../lib/validate";
import { requireFlag } from "../middleware/auth";
import { aircallCallCount, aircallOptions, aircallOutboundAnswered, aircallStoreTransfers } from "../services/counts/aircall";

const callApp = requireFlag("callApp");

export const aircallCountRoutes = new Hono<AppEnv>()
  .get("/call-count", callApp, validate("query", aircallCallCountQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallCallCount(meter, c.req.valid("query")) })),
  )
  .get("/outbound-answered-count", callApp, validate("query", aircallCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallOutboundAnswered(meter, c.req.valid("query")) })),
  )
  .get("/store-transfer-solutions-count", callApp, validate("query", aircallCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallStoreTransfers(meter, c.req.valid("query")) })),
  )
  .get("/options", callApp, (c) => measured(c, (meter): Promise<AircallOptionsResponse> => aircallOptions(meter)));
