// Call rows for tests, as the call list's API answers them.
import type { CallLogView } from "@shared/schemas/call-logs";

/** An ended inbound call with `summary`, as the call logs page lists it. */
export const listedCall = (id: number, summary: string): CallLogView => ({
  id,
  user_id: "u1",
  call_id: `c0ffee00-0000-4000-8000-00000000000${id}`,
  phone_number: "+13055550123",
  start_time: "2026-03-10T14:05:09.000Z",
  duration: 60,
  status: "ended",
  summary,
  ended_reason: null,
  direction: "inbound",
  agent_id: null,
  recording_url: null,
});

/** A ringing outbound call that started on 2026-03-11 at `start` (HH:MM, UTC), as the live feed sends it. */
export const ringingCall = (id: number, start: string, extra: Partial<CallLogView> = {}): CallLogView => ({
  id,
  user_id: "u1",
  call_id: `c-${id}`,
  phone_number: "+15551234567",
  start_time: `2026-03-11T${start}:00.000Z`,
  duration: 0,
  status: "ringing",
  summary: null,
  ended_reason: null,
  direction: "outbound",
  agent_id: 1,
  recording_url: null,
  ...extra,
});
