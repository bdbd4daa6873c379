// Activation mail: capped like all account mail to one address (MAIL_PER_EMAIL, 5 an hour) in local
// and Supabase modes, and a new activation link ends the older ones.
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mailOutbox } from "../db/schema";
import { MAIL_PER_EMAIL, mayMail } from "../db/rate-limit";
import { SupabaseIdentity } from "../providers/identity/supabase";
import { call, db, spendLink, uniqueEmail } from "../test/helpers";

const activationMails = (email: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toEmail, email.toLowerCase()), eq(mailOutbox.kind, "activation")))
    .orderBy(desc(mailOutbox.id));

// One hour window: the cap's counts cannot straddle a boundary.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_000);
});
afterEach(() => vi.useRealTimers());

describe("activation mail (local)", () => {
  it("sends at most MAIL_PER_EMAIL an hour, answering alike past the cap", async () => {
    const email = uniqueEmail("capped");
    const trial = await call("/api/stripe/start-trial", {
      method: "POST",
      json: { email, priceId: "price_local_basic_month", first_name: "C", last_name: "P" },
    });
    expect(trial.status).toBe(200);
    for (let i = 0; i < 7; i++) {
      const res = await call("/api/admin/public/resend-activation", { method: "POST", json: { email }, ip: `10.90.${i}.1` });
      expect(res).toMatchObject({ status: 200, body: { success: true } });
    }
    expect(await activationMails(email)).toHaveLength(MAIL_PER_EMAIL.limit);
    // The next hour, one more.
    vi.setSystemTime(Date.now() + 3_600_000);
    await call("/api/admin/public/resend-activation", { method: "POST", json: { email } });
    expect(await activationMails(email)).toHaveLength(MAIL_PER_EMAIL.limit + 1);
  });

  it("a trial's mail is counted against the cap in the batch that starts it, and past the cap none goes", async () => {
    const trial = (email: string) =>
      call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "C", last_name: "T" } });
    // One mail left under the cap: the trial's takes it, so the next one is past the cap.
    const last = uniqueEmail("cap-last");
    for (let i = 0; i < MAIL_PER_EMAIL.limit - 1; i++) expect(await mayMail(db(), last)).toBe(true);
    expect(await trial(last)).toMatchObject({ status: 200, body: { success: true } });
    expect(await activationMails(last)).toHaveLength(1);
    expect(await mayMail(db(), last)).toBe(false);
    // None left: the trial starts all the same, and no mail goes.
    const none = uniqueEmail("cap-none");
    for (let i = 0; i < MAIL_PER_EMAIL.limit; i++) expect(await mayMail(db(), none)).toBe(true);
    expect(await trial(none)).toMatchObject({ status: 200, body: { success: true } });
    expect(await activationMails(none)).toHaveLength(0);
  });

  it("a new activation link ends the older ones: only the newest activates", async () => {
    const email = uniqueEmail("newest");
    await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "N", last_name: "W" } });
    await call("/api/admin/public/resend-activation", { method: "POST", json: { email } });
    await call("/api/admin/public/resend-activation", { method: "POST", json: { email } });
    const [newest, ...older] = await activationMails(email);
    expect(older).toHaveLength(2);
    for (const mail of older) expect(await spendLink(mail.link!)).toMatchObject({ status: 403, body: { code: "otp_invalid" } });
    const used = await spendLink(newest.link!);
    expect(used.status).toBe(200);
    expect(used.body.access_token).toEqual(expect.any(String));
  });
});

describe("activation mail (Supabase)", () => {
  it("asks Supabase for at most MAIL_PER_EMAIL invites an hour to one address", async () => {
    const invites: string[] = [];
    const fakeFetch = vi.fn(async (input: RequestInfo | URL) => {
      invites.push(String(input));
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    const identity = new SupabaseIdentity({ url: "https://project.supabase.example", serviceRoleKey: "service", fetch: fakeFetch }, db());
    const email = uniqueEmail("sb-capped");
    for (let i = 0; i < 7; i++) await identity.sendActivation({ userId: "u-1", email, origin: "http://localhost" });
    expect(invites.filter((u) => u.includes("/auth/v1/invite"))).toHaveLength(MAIL_PER_EMAIL.limit);
  });
});
