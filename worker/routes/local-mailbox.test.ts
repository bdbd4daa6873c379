// GET /api/local/mailbox: the local outbox, only in local identity mode and never in production.
import { describe, expect, it } from "vitest";
import { call, uniqueEmail } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";

const mailbox = (query = "", bindings?: Record<string, unknown>) => call(`/api/local/mailbox${query}`, { bindings });

describe("GET /api/local/mailbox", () => {
  it("lists the confirmation mail of a new account in local mode", async () => {
    const email = uniqueEmail("Mailbox");
    await call("/auth/v1/signup", { method: "POST", json: { email, password: "Secret123" } });
    const res = await mailbox(`?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(1);
    expect(res.body.messages[0]).toMatchObject({ to: email.toLowerCase(), kind: "signup", subject: "Confirm your email" });
    expect(res.body.messages[0].link).toMatch(/\/auth#token_hash=[\w-]+&type=signup$/);
    expect((await mailbox(`?email=${encodeURIComponent(uniqueEmail("none"))}`)).body.messages).toEqual([]);
  });

  it("is 404 when Supabase is configured", async () => {
    const res = await mailbox("", { SUPABASE_URL: "https://project.supabase.example", SUPABASE_ANON_KEY: "anon" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(res.body).not.toHaveProperty("messages");
  });

  it("is 404 in production", async () => {
    const res = await mailbox("", PRODUCTION_BINDINGS);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(res.body).not.toHaveProperty("messages");
  });

  it("answers an oversized email filter with 400 naming email", async () => {
    const res = await mailbox(`?email=${"x".repeat(300)}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("email");
  });
});
