// Public account calls (docs/product/api.md#api): the existence check answers alike for both cases and is rate
// limited per client address and per email; it and the activation resend answer no sooner than one floor.
import { desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { mailOutbox } from "../db/schema";
import { call, db, signUpAndSignIn, spendLink, uniqueEmail } from "../test/helpers";
import { SUPABASE_STANDIN } from "../test/standins/supabase";
import { EMAIL_ANSWER_MIN_MS } from "./public-account";

const userExists = (email: unknown, ip?: string) => call("/api/admin/public/user-exists", { method: "POST", json: { email }, ip });

describe("POST /api/admin/public/user-exists", () => {
  it("answers { success, exists } for a known email, whatever its case, and for an unknown one", async () => {
    const { email } = await signUpAndSignIn();
    const known = await userExists(email.toUpperCase());
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ success: true, exists: true });

    const unknown = await userExists(uniqueEmail("nobody"));
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ success: true, exists: false });
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.headers.get("content-type")).toBe(known.headers.get("content-type"));
  });

  it("counts an account that has not confirmed its email yet", async () => {
    const email = uniqueEmail();
    await call("/auth/v1/signup", { method: "POST", json: { email, password: "Secret123" } });
    expect((await userExists(email)).body).toEqual({ success: true, exists: true });
  });

  it("answers a bad or missing email with 400 JSON naming email", async () => {
    for (const email of ["not-an-email", "", 42, `${"x".repeat(260)}@example.com`, undefined]) {
      const res = await userExists(email);
      expect(res.status, String(email)).toBe(400);
      expect(res.body.field).toBe("email");
      expect(res.body.code).toBe("validation_error");
    }
    const malformed = await call("/api/admin/public/user-exists", {
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");
  });

  describe("rate limits", () => {
    // Freeze the clock inside one fixed window so the counts cannot straddle a window boundary.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    });
    afterEach(() => vi.useRealTimers());

    it("trips per (email, address) with a 429 JSON message, without locking the email's owner out elsewhere", async () => {
      const email = uniqueEmail("hammered");
      const allowed = await Promise.all(Array.from({ length: 10 }, () => userExists(email, "10.1.0.1")));
      expect(allowed.map((r) => r.status)).toEqual(Array(10).fill(200));

      const limited = await userExists(email, "10.1.0.1");
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("rate_limited");
      expect(limited.body.error).toBe("Too many requests. Please wait a minute and try again.");
      // The owner of the email, from their own address, is unaffected.
      expect((await userExists(email, "10.1.0.100")).status).toBe(200);
    });

    it("counts a whole IPv6 /64 as one address", async () => {
      const r = Math.floor(Math.random() * 0xffff).toString(16);
      const allowed = await Promise.all(Array.from({ length: 30 }, (_, i) => userExists(uniqueEmail("v6"), `2001:db8:${r}:7::${(i + 1).toString(16)}`)));
      expect(allowed.map((res) => res.status)).toEqual(Array(30).fill(200));
      // A fresh /128 inside the same /64 (written in full) is still the same client.
      expect((await userExists(uniqueEmail("v6"), `2001:0db8:${r.padStart(4, "0")}:0007:ffff:ffff:ffff:fffe`)).status).toBe(429);
      // The neighbouring /64 is another client.
      expect((await userExists(uniqueEmail("v6"), `2001:db8:${r}:8::1`)).status).toBe(200);
    });

    it("trips per client address (cf-connecting-ip) across emails", async () => {
      const ip = "10.2.0.1";
      const allowed = await Promise.all(Array.from({ length: 30 }, () => userExists(uniqueEmail("scan"), ip)));
      expect(allowed.map((r) => r.status)).toEqual(Array(30).fill(200));

      const limited = await userExists(uniqueEmail("scan"), ip);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: "rate_limited", error: expect.stringMatching(/too many requests/i) });
      expect((await userExists(uniqueEmail("scan"), "10.2.0.2")).status).toBe(200);
    });

    it("starts counting again in the next window", async () => {
      const email = uniqueEmail("patient");
      await Promise.all(Array.from({ length: 10 }, () => userExists(email, "10.3.0.1")));
      expect((await userExists(email, "10.3.0.1")).status).toBe(429);
      vi.setSystemTime(Date.now() + 60_000);
      expect((await userExists(email, "10.3.0.1")).status).toBe(200);
    });
  });
});

describe("the answer time of the public calls about an email", () => {
  const realTimeout = globalThis.setTimeout;
  afterEach(() => vi.useRealTimers());

  /**
   * Sends the request on a fake clock that moves only to fire a timer the request set (it waits for
   * its database in real time meanwhile): the clock time the answer took is then exactly the wait the
   * route added, whatever the machine's speed.
   */
  async function clockTimeOf(path: string, json: Record<string, string>) {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout"] });
    const started = Date.now();
    let answer: Awaited<ReturnType<typeof call>> | undefined;
    const sent = call(path, { method: "POST", json }).then((res) => (answer = res));
    while (!answer) {
      if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
      else await new Promise((resolve) => realTimeout(resolve, 1));
    }
    await sent;
    const took = Date.now() - started;
    vi.useRealTimers();
    return { status: answer.status, took };
  }

  it("holds user-exists, email-confirmed and resend-activation until one floor, for an email with a pending account and one without", async () => {
    const pending = uniqueEmail("pending");
    const trial = await call("/api/stripe/start-trial", { method: "POST", json: { email: pending, priceId: "price_local_basic_month", first_name: "P", last_name: "A" } });
    expect(trial.status).toBe(200);
    const userId = crypto.randomUUID();
    for (const path of ["/api/admin/public/user-exists", "/api/admin/public/email-confirmed", "/api/admin/public/resend-activation"]) {
      for (const email of [pending, uniqueEmail("nobody")]) {
        const { status, took } = await clockTimeOf(path, { email, userId });
        expect({ path, status, took }).toEqual({ path, status: 200, took: EMAIL_ANSWER_MIN_MS });
      }
    }
  });
});

describe("POST /api/admin/public/email-confirmed", () => {
  const ask = (json: unknown, bindings?: Record<string, unknown>) => call("/api/admin/public/email-confirmed", { method: "POST", json, bindings });

  it("answers false until the registered address is confirmed, then true; only for the account id its sign-up answered with", async () => {
    const email = uniqueEmail("Register");
    const signUp = await call("/auth/v1/signup", { method: "POST", json: { email, password: "Secret123", data: { username: "nick" } } });
    expect(signUp.status).toBe(200);
    const userId = signUp.body.id as string;
    expect(await ask({ email, userId })).toMatchObject({ status: 200, body: { success: true, confirmed: false } });

    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toLowerCase())).orderBy(desc(mailOutbox.id));
    expect((await spendLink(mail.link!)).status).toBe(200);
    expect((await ask({ email: email.toUpperCase(), userId })).body).toEqual({ success: true, confirmed: true });

    // Another id, or this id with another address: nothing is told.
    const other = await signUpAndSignIn();
    expect((await ask({ email: other.email, userId })).body.confirmed).toBe(false);
    expect((await ask({ email, userId: other.userId })).body.confirmed).toBe(false);
    expect((await ask({ email, userId: crypto.randomUUID() })).body.confirmed).toBe(false);
  });

  it("refuses a missing or malformed id or email with 400 naming the field", async () => {
    const email = uniqueEmail();
    expect(await ask({ email })).toMatchObject({ status: 400, body: { field: "userId" } });
    expect(await ask({ email, userId: "not-an-id" })).toMatchObject({ status: 400, body: { field: "userId" } });
    expect(await ask({ email: "nope", userId: crypto.randomUUID() })).toMatchObject({ status: 400, body: { field: "email" } });
  });

  it("asks Supabase for the account with its admin API: false before the confirmation, true after", async () => {
    const standin = inject("standins").supabase;
    const prefix = `/p/confirmed-${Date.now().toString(36)}`;
    const bindings = { SUPABASE_URL: `${standin}${prefix}`, SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey, SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey };
    const email = uniqueEmail("sb-register");
    const signUp = await fetch(`${standin}${prefix}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: SUPABASE_STANDIN.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "Secret123" }),
    });
    const { id: userId } = (await signUp.json()) as { id: string };
    expect((await ask({ email, userId }, bindings)).body).toEqual({ success: true, confirmed: false });
    await fetch(`${standin}${prefix}/auth/v1/admin/users/${userId}`, {
      method: "PUT",
      headers: { apikey: SUPABASE_STANDIN.serviceRoleKey, authorization: `Bearer ${SUPABASE_STANDIN.serviceRoleKey}`, "content-type": "application/json" },
      body: JSON.stringify({ email_confirm: true }),
    });
    expect((await ask({ email, userId }, bindings)).body).toEqual({ success: true, confirmed: true });
    expect((await ask({ email, userId: crypto.randomUUID() }, bindings)).body).toEqual({ success: true, confirmed: false });
  });
});
