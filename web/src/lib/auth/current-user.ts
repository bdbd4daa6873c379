// The signed-in user's view (GET /api/profile): flags come from the server, never from user_metadata.
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";
import { currentUserKeys, PROFILE_PATH } from "./profile-key";

/** Throws on 401 like every fetcher; the auth provider answers that by dropping the session. */
export const getCurrentUser = () => apiJson("GET", PROFILE_PATH);

export const currentUserQueryOptions = () => queryOptions({ queryKey: currentUserKeys.all, queryFn: getCurrentUser });
