// The entry's start (decision 062): main.tsx imports this module right after zod-jitless, so its body
// runs once the query library is evaluated, before React DOM, the router and the app's components. The
// query client is created here and takes the early entry's requests (decision 065), so the answers
// land where the app reads them.
import { createQueryClient } from "@web/lib/query-client";
import { early } from "./early";
import { startFirstRequests } from "./first-requests";

export const queryClient = createQueryClient();
startFirstRequests(queryClient, early);
