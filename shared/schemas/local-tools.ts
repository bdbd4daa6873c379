// The development tools' inputs: the local checkout page, the voice simulator's recordings and the
// Aircall simulator. Off in production (worker/app.ts).
import { z } from "zod";
import { storeField } from "./store";

/** A local checkout session's id, as the local billing adapter makes them. */
export const localCheckoutParams = z.object({ id: z.string().regex(/^cs_local_[0-9A-Za-z_-]{8,64}$/, "not a checkout session") });
export const localPayForm = z.object({
  card: z.string().trim().max(30).default(""),
  name: z.string().trim().max(200).optional(),
  expiry: z.string().trim().max(7).optional(),
  cvc: z.string().trim().max(4).optional(),
});

export const simRecordingParams = z.object({
  file: z.string().regex(/^sim_call_[0-9a-f-]{36}\.wav$/, "file is not a simulated recording"),
});

export const SIMULATED_CALL_SCENARIOS = ["answered", "missed", "voicemail", "transferred", "outbound"] as const;

// Strict: a mistyped option is an error, not a silently different call.
export const simulateCallBody = z.strictObject({
  scenario: z.enum(SIMULATED_CALL_SCENARIOS).default("answered"),
  store: storeField.default("MIAMI"),
  userName: z.string().trim().min(1).max(80).default("Local Agent"),
});
