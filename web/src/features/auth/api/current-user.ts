// The signed-in user's view (GET /api/profile): flags come from the server, never from user_metadata.
import { queryOptions } from "@tanstack/react-query";
import type { CurrentUserView } from "@shared/schemas/auth";

export const CURRENT_USER_KEY = ["/api/profile"] as const;

/** Uses the default query function: a GET of the key's first element that throws on 401. */
export const currentUserQueryOptions = () => queryOptions<CurrentUserView>({ queryKey: CURRENT_USER_KEY });
