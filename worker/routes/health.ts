import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { adapterKinds } from "../providers";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
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
  return c.json(
    { ok: database === "ok", database, migration, providers: adapterKinds(c.var.config, { AI: c.env.AI }), requestId: c.var.requestId },
    database === "ok" ? 200 : 503,
  );
});
