// Aircall's call object as its REST API and webhooks send it (the fields the product reads), and
// its mapping to the port's CentreCall. Both adapters and both transports share this one shape.
import { z } from "zod";
import type { CentreCall } from "./port";

/** Aircall times are unix seconds, null until they happened. */
const unixSeconds = z.number().nonnegative().finite();
const named = z.looseObject({ name: z.string().nullish() });

export const aircallCallSchema = z.looseObject({
  // Integers in Aircall's API; a numeric string is accepted so an id never loses precision in transit.
  id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
  direction: z.enum(["inbound", "outbound"]),
  status: z.string().min(1).nullish(),
  started_at: unixSeconds.nullish(),
  answered_at: unixSeconds.nullish(),
  ended_at: unixSeconds.nullish(),
  duration: z.number().nonnegative().finite().nullish(),
  // Absent or null on missed and voicemail calls.
  user: named.nullish(),
  number: z.looseObject({ name: z.string().nullish(), digits: z.string().nullish() }).nullish(),
  // A user or a team in Aircall; both have a name.
  transferred_to: named.nullish(),
  missed_call_reason: z.string().nullish(),
});
export type AircallCall = z.infer<typeof aircallCallSchema>;

export const unixToIso = (seconds: number | null | undefined) =>
  seconds == null ? null : new Date(Math.floor(seconds) * 1000).toISOString();

const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

export function toCentreCall(c: AircallCall, fallbackStatus = "initial"): CentreCall {
  const answeredAt = unixToIso(c.answered_at);
  const endedAt = unixToIso(c.ended_at);
  return {
    id: String(c.id),
    direction: c.direction,
    status: c.status ?? (endedAt ? "done" : answeredAt ? "answered" : fallbackStatus),
    startedAt: unixToIso(c.started_at),
    answeredAt,
    endedAt,
    durationSeconds: c.duration == null ? null : Math.round(c.duration),
    userName: text(c.user?.name),
    // Kept as Aircall spells it (ends trimmed): the numberName filter matches it, trailing dots included.
    numberName: text(c.number?.name),
    transferredTo: text(c.transferred_to?.name),
  };
}
