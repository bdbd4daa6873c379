// Beyond spec 1: the dashboard's chart of daily call volume, the per-store funnel and call cost
// (docs/spec-deviations.md). Queries reuse the counts' range and call filters.
import type { z } from "zod";
import type { callVolumeResponse, storeFunnelResponse, storeFunnelRow } from "./answer-shapes";

export type { CallVolumeFigures } from "./answer-shapes";

/** GET /api/call-volume (same query as /api/call-logs/count): every day of the range, oldest first. */
export type CallVolumeResponse = z.infer<typeof callVolumeResponse>;
/** One store's funnel over the range: the caller's AI calls, then the store's appointments. */
export type StoreFunnelRow = z.infer<typeof storeFunnelRow>;
/** GET /api/store-funnel?startDate&endDate (shopwindows_info). */
export type StoreFunnelResponse = z.infer<typeof storeFunnelResponse>;

/** A conversion rate as a share, or null when the base is zero. */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
