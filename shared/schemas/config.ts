// GET /api/config: the publishable client configuration, read by the SPA before its auth client exists.
import { z } from "zod";

export const appConfigResponse = z.object({
  /** Where supabase-js points: Supabase itself, or the Worker's own GoTrue-compatible /auth/v1. */
  auth: z.object({ mode: z.enum(["local", "supabase"]), url: z.string(), anonKey: z.string() }),
  /** Whether the local outbox (/mailbox) exists: local identity mode only. */
  localMailbox: z.boolean(),
});
export type AppConfigResponse = z.infer<typeof appConfigResponse>;
