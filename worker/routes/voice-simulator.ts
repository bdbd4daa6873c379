// The voice simulator's own HTTP surface, as VAPI serves its recordings from its own storage. It
// answers only while the simulator is the voice adapter (ADR 007); no product route uses it.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { simulatedRecordingWav } from "../providers";
import { DeclaredRoutes } from "./serve";

const simulatorOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.providers.voice.kind !== "local") throw notFound("Recording not found");
  await next();
});

export const voiceSimulatorRoutes = new DeclaredRoutes()
  // Public like a platform recording URL (an <audio> element sends no bearer token), and only a
  // generated tone, never call content.
  .serve("GET /api/vapi/sim-recordings/:file", { after: [simulatorOnly] }, (c) => {
    const callId = c.req.valid("param").file.replace(/\.wav$/, "");
    return c.body(simulatedRecordingWav(callId), 200, { "content-type": "audio/wav", "cache-control": "public, max-age=86400" });
  });
