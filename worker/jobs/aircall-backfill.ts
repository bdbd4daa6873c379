// Aircall backfill: walks Aircall's call list forward in time, window by window and page by page,
// storing each page through the same upsert as the webhooks. It catches up whatever webhooks missed
// (downtime, a webhook Aircall disabled, history from before the webhook existed).
//
// Resumable: the cursor (window and next page) is saved in system_config in the same batch as the
// page's calls, so a run that stops anywhere (page budget, rate limit, failure) resumes after the
// last stored page. Bounded: at most `maxPages` requests a run, far under Aircall's 60 a minute.
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import type { Database } from "../db/client";
import { systemConfig } from "../db/schema";
import type { CallCentrePort } from "../providers/callcentre/port";
import { AIRCALL_MAX_LISTED, AIRCALL_PER_PAGE } from "../providers";
import { backfilledCallStatements } from "../services/aircall-calls";
import type { JobContext } from "./context";

export const AIRCALL_CURSOR_KEY = "aircall_backfill_cursor";
export const BACKFILL_DEFAULTS = {
  /** History read on the very first run. */
  days: 7,
  /** One window's span; split in halves while Aircall would not list all of its calls. */
  windowSeconds: 86_400,
  /** Calls younger than this are left to the webhooks and the next runs: they may still be going on. */
  lagSeconds: 3_600,
  maxPages: 40,
} as const;

/** The window being read ([from, to) in unix seconds) and the next page to read in it. */
const cursorSchema = z.object({ from: z.number().int(), to: z.number().int(), page: z.number().int().positive() });
export type BackfillCursor = z.infer<typeof cursorSchema>;

export async function readCursor(db: Database): Promise<BackfillCursor | null> {
  const row = await db.query.systemConfig.findFirst({ where: eq(systemConfig.key, AIRCALL_CURSOR_KEY) });
  if (!row) return null;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const saveCursor = (db: Database, cursor: BackfillCursor) => {
  const value = JSON.stringify(cursor);
  return db
    .insert(systemConfig)
    .values({ key: AIRCALL_CURSOR_KEY, value })
    .onConflictDoUpdate({ target: systemConfig.key, set: { value, updatedAt: new Date().toISOString() } });
};

export type BackfillOptions = Partial<Record<keyof typeof BACKFILL_DEFAULTS, number>>;

export async function runAircallBackfill(ctx: JobContext, port: CallCentrePort, options: BackfillOptions = {}) {
  const o = { ...BACKFILL_DEFAULTS, ...(ctx.config.AIRCALL_BACKFILL_DAYS ? { days: ctx.config.AIRCALL_BACKFILL_DAYS } : {}), ...options };
  const nowS = Math.floor(ctx.now.getTime() / 1000);
  const horizon = nowS - o.lagSeconds;
  const start = (from: number): BackfillCursor => ({ from, to: Math.min(from + o.windowSeconds, horizon), page: 1 });

  let cursor = (await readCursor(ctx.db)) ?? start(nowS - o.days * 86_400);
  let pages = 0;
  let calls = 0;
  while (pages < o.maxPages) {
    // A finished window leaves a cursor at its end; the next window opens once time has moved on.
    if (cursor.page === 1 && cursor.to <= cursor.from) cursor = start(cursor.from);
    if (cursor.from >= horizon) break;
    const page = await port.listCalls({ from: new Date(cursor.from * 1000), to: new Date(cursor.to * 1000) }, cursor.page);
    pages++;
    if (page.total > AIRCALL_MAX_LISTED && cursor.to - cursor.from > 1) {
      // Aircall would stop listing before the window's end: read the first half first.
      if (cursor.page !== 1) throw new Error("Aircall window grew past its listing limit while being read");
      cursor = { ...cursor, to: cursor.from + Math.floor((cursor.to - cursor.from) / 2) };
      continue;
    }
    const next: BackfillCursor = page.hasMore && cursor.page * AIRCALL_PER_PAGE < AIRCALL_MAX_LISTED
      ? { ...cursor, page: cursor.page + 1 }
      : { from: cursor.to, to: cursor.to, page: 1 };
    // The page's calls and the cursor past them in one transaction: a rerun never skips or repeats half a page.
    const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = [
      saveCursor(ctx.db, next),
      ...backfilledCallStatements(ctx.db, page.calls, ctx.now.toISOString()),
    ];
    await ctx.db.batch(statements);
    calls += page.calls.length;
    cursor = next;
  }
  return { pages, calls, cursor };
}
