import { sql } from "drizzle-orm";
import { adapterKinds } from "../providers";
import { listJobRuns, type JobRunView } from "../services/job-runs";
import { log } from "../lib/log";
import { DeclaredRoutes } from "./serve";

export const healthRoutes = new DeclaredRoutes().serve("GET /api/health", async (c) => {
  let database: "ok" | "unreachable" = "ok";
  let migration: string | null = null;
  try {
    const row = await c.var.db.get<{ name: string | null }>(sql`select max(name) as name from d1_migrations`);
    migration = row?.name ?? null;
  } catch {
    try {
      await c.var.db.run(sql`select 1`);
    } catch {
      database = "unreachable";
    }
  }
  // Scheduled jobs' last runs and errors are for admins only: error text can name internals.
  let jobs: JobRunView[] | undefined;
  if (c.var.user?.isAdmin && database === "ok") {
    try {
      jobs = await listJobRuns(c.var.db);
    } catch (e) {
      log(c, "error", "reading job runs failed", { error: e instanceof Error ? e.message : String(e) });
    }
  }
  return c.json(
    {
      ok: database === "ok",
      database,
      migration,
      providers: adapterKinds(c.var.config, { AI: c.env.AI }),
      ...(jobs ? { jobs } : {}),
      requestId: c.var.requestId,
    },
    database === "ok" ? 200 : 503,
  );
});
