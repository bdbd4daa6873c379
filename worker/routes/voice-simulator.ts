// The voice simulator's own HTTP surface, as VAPI serves its recordings from its own storage. It
// answers only while the simulator is the voice adapter (ADR 007); no product route uses it.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { simulatedRecordingWav } from "../providers";

const simRecordingParams = z.object({
  file: z.string().regex(/^sim_call_[0-9a-f-]{36}\.wav$/, "file is not a simulated recording"),
});

const simulatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.providers.voice.kind !== "local") throw notFound("Recording not found");
  await next();
});

export const voiceSimulatorRoutes = new Hono<AppEnv>()
  // Public like a platform recording URL (an <audio> element sends no bearer token), and only a
  // generated tone, never call content.
  .get("/:file", validate("param", simRecordingParams), simulatorOnly, (c) => {
    const callId = c.req.valid("param").file.replace(/\.wav$/, "");
    return c.body(simulatedRecordingWav(callId), 200, { "content-type": "audio/wav", "cache-control": "public, max-age=86400" });
  });
