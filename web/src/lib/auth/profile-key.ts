// The profile's path and cache key, apart from its query options so the page's early module entry
// can ask for the profile without the query library (decision 065).
export const PROFILE_PATH = "/api/profile";

export const currentUserKeys = { all: [PROFILE_PATH] as const };
