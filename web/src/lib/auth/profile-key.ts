// The profile's path and cache key, apart from its query options so the entry's start can ask for
// the profile before the auth provider is loaded (web/src/boot/early-requests.ts).
export const PROFILE_PATH = "/api/profile";

export const currentUserKeys = { all: [PROFILE_PATH] as const };
