// The Aircall counts of the operations dashboard (docs/product/api.md#dashboard-counts), mounted at /api/aircall: the store
// network's calls, for users with the callApp flag (admins see all). Answered from roll-ups plus a
// live query (docs/decisions/011-rollups.md).
import { type AircallOptionsResponse, type CountResponse } from "@shared/schemas/counts";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import { aircallCallCount, aircallOptions, aircallOutboundAnswered, aircallStoreTransfers } from "../services/counts/aircall";
import { DeclaredRoutes } from "./serve";


export const aircallCountRoutes = new DeclaredRoutes()
  .serve("GET /api/aircall/call-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallCallCount(meter, c.req.valid("query")) })),
  )
  .serve("GET /api/aircall/outbound-answered-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallOutboundAnswered(meter, c.req.valid("query")) })),
  )
  .serve("GET /api/aircall/store-transfer-solutions-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallStoreTransfers(meter, c.req.valid("query")) })),
  )
  .serve("GET /api/aircall/options", (c) => measured(c, (meter): Promise<AircallOptionsResponse> => aircallOptions(meter)));
