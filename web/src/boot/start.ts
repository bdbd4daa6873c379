// The entry's start: main.tsx imports this module right after zod-jitless, so its body runs once the
// query library is evaluated, before React DOM, the router and the app's components. It sends the
// page's first requests (early-requests.ts) and creates the query client that takes their answers,
// so the answers land where the app reads them.
import { createQueryClient } from "@web/lib/query-client";
import { sendEarlyRequests } from "./early-requests";
import { startFirstRequests } from "./first-requests";

export const queryClient = createQueryClient();
startFirstRequests(queryClient, sendEarlyRequests());
