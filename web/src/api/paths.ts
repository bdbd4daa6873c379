// The paths of the reads several screens share, apart from their query options so the page's first
// requests (web/src/boot/early-requests.ts) can name them as plain URLs.
export const AGENTS_PATH = "/api/agents";
export const USAGE_STATS_PATH = "/api/usage-stats";
export const ALERT_BELL_PATH = "/api/alerts/bell";
