// Beyond spec 1: the dashboard's chart of daily call volume, the per-store funnel and call cost
// (docs/spec-deviations.md). Queries reuse the counts' range and call filters.
import type { Store } from "../constants";

/** One figure set of a day and direction: the Call Logs figures (decision 009) and the platform's cost. */
export type CallVolumeFigures = { total: number; connected: number; voicemail: number; forwarded: number; cost: number };

/** GET /api/call-volume (same query as /api/call-logs/count): every day of the range, oldest first. */
export type CallVolumeResponse = {
  days: { date: string; inbound: CallVolumeFigures; outbound: CallVolumeFigures }[];
  totals: { calls: number; cost: number; costPerCall: number | null };
};

/** One store's funnel over the range: the caller's AI calls, then the store's appointments. */
export type StoreFunnelRow = {
  store: Store;
  aiCalls: number;
  cost: number;
  costPerCall: number | null;
  inboundBooked: number;
  outboundBooked: number;
  visited: number;
  sold: number;
};

/** GET /api/store-funnel?startDate&endDate (shopwindows_info). */
export type StoreFunnelResponse = {
  stores: StoreFunnelRow[];
  /** Calls of assistants that no store agent of the caller holds now (deleted or storeless agents). */
  unassigned: { aiCalls: number; cost: number };
};

/** A conversion rate as a share, or null when the base is zero. */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
