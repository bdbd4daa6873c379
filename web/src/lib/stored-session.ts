// Where supabase-js keeps a session, apart from the client that configures it: the page's early
// requests (web/src/boot/early-requests.ts) read the stored token without loading the client.

/**
 * Where supabase-js keeps a session: `sb-<first label of the auth URL's host>-auth-token` in
 * localStorage (its default storage key). Any such key means a session may be there to restore.
 */
export const STORED_SESSION_KEY = /^sb-[^-]+-auth-token$/;
