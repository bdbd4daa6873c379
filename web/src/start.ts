// The page's first requests, made while the entry is still being evaluated (decision 062): main.tsx
// imports this module right after zod-jitless, so its body runs once the query library and the
// request helper are evaluated, before React DOM, the router and the app's components, whose
// evaluation is most of the entry's run. The query client is created here so the answers land where
// the app reads them.
import { createQueryClient } from "@web/lib/query-client";
import { startFirstRequests } from "./first-requests";

export const queryClient = createQueryClient();
startFirstRequests(queryClient);
