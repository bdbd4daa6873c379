// Per-email limits of the public account calls are keyed on (email, client address): a stranger who
// sends a buyer's email from elsewhere exhausts only their own count, never the buyer's.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, uniqueEmail } from "../test/helpers";

type Json = Record<string, unknown>;
const calls: [string, (email: string) => Json][] = [
  ["/api/admin/public/update-user-password", (email) => ({ email, password: "Secret123" })],
  ["/api/admin/public/resend-activation", (email) => ({ email })],
  ["/api/admin/public/email-confirmed", (email) => ({ email, userId: "3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f4a6b" })],
  ["/api/stripe/start-trial", (email) => ({ email, priceId: "price_local_none", first_name: "A", last_name: "B" })],
  ["/api/leads/leads", (email) => ({ email, phone: "5551234567", first_name: "A", last_name: "B", lead_source: "website",
    metadata: { product_type: "basic", product_name: "Basic", price_id: "price_local_basic_month", is_trial: false, submitted_at: new Date().toISOString() },
  })],
];

describe("public account calls: per-email limits", () => {
  // One fixed window, so the counts cannot straddle a window boundary.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
  });
  afterEach(() => vi.useRealTimers());

  it.each(calls)("%s: eleven requests from one address do not lock the email out at another", async (path, body) => {
    const email = uniqueEmail("buyer");
    const stranger = `10.77.${Math.floor(Math.random() * 250)}.1`;
    for (let i = 0; i < 11; i++) await call(path, { method: "POST", json: body(email), ip: stranger });
    expect((await call(path, { method: "POST", json: body(email), ip: stranger })).status).toBe(429);
    const own = await call(path, { method: "POST", json: body(email), ip: `10.78.${Math.floor(Math.random() * 250)}.1` });
    expect(own.status).not.toBe(429);
    expect(own.status).toBeLessThan(500);
  });
});
