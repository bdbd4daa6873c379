// The paths of the reads several screens share, apart from their query options so the page's early
// module entry can name them without the query library (decision 065).
export const AGENTS_PATH = "/api/agents";
export const USAGE_STATS_PATH = "/api/usage-stats";
