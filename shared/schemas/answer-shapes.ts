// Answer schemas of modules whose values the SPA imports where zod must not load (shared/batch.ts in
// the request helper, shared/daily-report.ts and shared/schemas/insights.ts in screens): those
// modules export their types from these, type-only.
import { z } from "zod";
import { STORES } from "../constants";

const callVolumeFigures = z.object({ total: z.number(), connected: z.number(), voicemail: z.number(), forwarded: z.number(), cost: z.number() });
export type CallVolumeFigures = z.infer<typeof callVolumeFigures>;

/** GET /api/call-volume (same query as /api/call-logs/count): every day of the range, oldest first. */
export const callVolumeResponse = z.object({
  days: z.array(z.object({ date: z.string(), inbound: callVolumeFigures, outbound: callVolumeFigures })),
  totals: z.object({ calls: z.number(), cost: z.number(), costPerCall: z.number().nullable() }),
});

/** One store's funnel over the range: the caller's AI calls, then the store's appointments. */
export const storeFunnelRow = z.object({
  store: z.enum(STORES),
  aiCalls: z.number(),
  cost: z.number(),
  costPerCall: z.number().nullable(),
  inboundBooked: z.number(),
  outboundBooked: z.number(),
  visited: z.number(),
  sold: z.number(),
});

/** GET /api/store-funnel?startDate&endDate (shopwindows_info). */
export const storeFunnelResponse = z.object({
  stores: z.array(storeFunnelRow),
  /** Calls of assistants that no store agent of the caller holds now (deleted or storeless agents). */
  unassigned: z.object({ aiCalls: z.number(), cost: z.number() }),
});

/** A stored nightly report as GET /api/daily-reports lists it. */
export const dailyReportListItem = z.object({ id: z.number(), date: z.string(), store: z.string().nullable(), created_at: z.string(), rows: z.number() });
export const dailyReportListResponse = z.object({ reports: z.array(dailyReportListItem), nextCursor: z.string().nullable() });

/** One read's answer: its status, the headers a client keeps (type, D1 bookmark, Server-Timing), its body as text. */
export const batchAnswer = z.object({ status: z.number(), headers: z.record(z.string(), z.string()), body: z.string() });
/** POST /api/batch: the answers in the order of the request's paths. */
export const batchResponse = z.object({ responses: z.array(batchAnswer) });
