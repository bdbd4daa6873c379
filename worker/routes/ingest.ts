// POST /api/ingest/appointments and /api/ingest/leads: the store network's systems (Shopwindow)
// push appointments and leads in bulk. No user session: the caller proves itself with the
// deployment's ingestion key, checked before the body is read.
import { zValidator } from "@hono/zod-validator";
import { nyDayOf } from "@shared/ny-time";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import { INGEST_MAX_ISSUES, ingestAppointmentsBody, ingestLeadsBody } from "../../shared/schemas/ingest";
import type { AppConfig } from "../env";
import type { AppEnv } from "../app-env";
import { safeEqual } from "../lib/crypto";
import { ApiError, unauthorized } from "../lib/errors";
import { issuesToError } from "../lib/validate";
import { bearerToken } from "../middleware/auth";
import { emit } from "../events/emit";
import { ingestAppointments, ingestLeads } from "../services/ingest";
import { DeclaredRoutes } from "./serve";

/** The key local servers and tests accept when INGEST_API_KEY is unset (never in production). */
export const DEV_INGEST_API_KEY = "local-development-ingest-key-0001";

/** INGEST_API_KEY, or outside production the development key; null in production without one. */
export function ingestApiKey(config: AppConfig): string | null {
  if (config.INGEST_API_KEY) return config.INGEST_API_KEY;
  return config.APP_ENV === "production" ? null : DEV_INGEST_API_KEY;
}

const requireIngestKey = createMiddleware<AppEnv>(async (c, next) => {
  const key = ingestApiKey(c.var.config);
  // Unconfigured production stays closed, and says why, rather than accepting anyone.
  if (!key) throw new ApiError(503, "Ingestion is not configured on this deployment (INGEST_API_KEY)", "not_configured");
  const given = c.req.header("x-ingest-key")?.trim() || bearerToken(c.req.header("authorization"));
  if (!given || !(await safeEqual(given, key))) throw unauthorized("Missing or invalid ingestion key");
  await next();
});

/** Like validate("json"), with the issue list capped: a wholly wrong file of 1,000 records would answer megabytes. */
const validateBody = <T extends z.ZodType>(schema: T) =>
  zValidator("json", schema, (result) => {
    if (!result.success) throw issuesToError(result.error.issues.slice(0, INGEST_MAX_ISSUES));
  });

export const ingestRoutes = new DeclaredRoutes()
  .under("/api/ingest/*", requireIngestKey)
  .serve("POST /api/ingest/appointments", { after: [validateBody(ingestAppointmentsBody)] }, async (c) => {
    const { appointments } = c.req.valid("json");
    const result = await ingestAppointments(c.var.db, appointments);
    // Committed: staff with the store flag see those days move (decision 058).
    emit(c, "storeChanged", { kind: "appointment", days: appointments.flatMap((a) => [nyDayOf(a.begin_utc), nyDayOf(a.booked_at)]) });
    return c.json(result);
  })
  .serve("POST /api/ingest/leads", { after: [validateBody(ingestLeadsBody)] }, async (c) => {
    const { leads } = c.req.valid("json");
    const result = await ingestLeads(c.var.db, leads);
    emit(c, "storeChanged", { kind: "lead", days: leads.map((l) => nyDayOf(l.submitted_at)) });
    return c.json(result);
  });
