// Request bodies several test files send as they are: a VAPI call and its end-of-call report (the
// webhook's tests and the round-trip table), and a lead as the checkout and trial pages post it
// (the lead route's tests and the round-trip table).
import { uniqueEmail } from "./helpers";

/** A call as VAPI puts it in a server message's `message.call`. */
export function vapiCall(id: string, assistantId: string, over: Record<string, unknown> = {}) {
  return {
    id,
    orgId: "org-1",
    type: "outboundPhoneCall",
    status: "in-progress",
    assistantId,
    phoneNumberId: "pn-1",
    customer: { number: "+13055550100" },
    createdAt: "2026-03-02T14:59:58.000Z",
    updatedAt: "2026-03-02T15:00:00.000Z",
    ...over,
  };
}

/** VAPI's end-of-call report of that call (2 min 5.6 s on 2 March 2026, New York afternoon); `over` replaces message fields. */
export function vapiReport(id: string, assistantId: string, over: Record<string, unknown> = {}) {
  return {
    message: {
      type: "end-of-call-report",
      timestamp: 1772463700000,
      endedReason: "customer-ended-call",
      startedAt: "2026-03-02T15:00:00.000Z",
      endedAt: "2026-03-02T15:02:05.600Z",
      cost: 0.23,
      analysis: { summary: "The customer booked a hearing test for Friday." },
      artifact: { transcript: "AI: Hello, this is the Miami desk.\nHuman: Hi, I'd like to book a test.", recordingUrl: "https://storage.vapi.ai/r.wav", messages: [] },
      call: vapiCall(id, assistantId),
      ...over,
    },
  };
}

/** A lead of docs/product/README.md#records as POST /api/leads/leads takes it (a trial's, with a new email each time). */
export const leadPayload = (over: Record<string, unknown> = {}) => ({
  email: uniqueEmail("lead"),
  phone: "3055550142",
  first_name: "Lee",
  last_name: "Dee",
  company: "Acme",
  lead_source: "trial",
  lead_status: "new",
  interest_level: 4,
  metadata: { product_type: "pro", product_name: "Pro", price_id: "price_local_pro_month", is_trial: true, submitted_at: new Date().toISOString() },
  ...over,
});
