// GET /api/config: what the SPA's auth client needs, and nothing secret.
import { describe, expect, it } from "vitest";
import { DEV_AUTH_SECRET } from "../providers/identity/local";
import { call } from "../test/helpers";
import { LOCAL_ANON_KEY } from "./config";

/** Distinctive values for every secret binding, so a leak anywhere in the body is caught. */
const secrets = {
  LOCAL_AUTH_SECRET: "leak-check-local-auth-secret-0001",
  SUPABASE_SERVICE_ROLE_KEY: "leak-check-service-role-key-0002",
  SUPABASE_JWT_SECRET: "leak-check-jwt-secret-0003",
  VAPI_PRIVATE_KEY: "leak-check-vapi-private-0004",
  VAPI_WEBHOOK_SECRET: "leak-check-vapi-webhook-0005",
  TWILIO_AUTH_TOKEN: "leak-check-twilio-token-0006",
  STRIPE_SECRET_KEY: "leak-check-stripe-secret-0007",
  STRIPE_WEBHOOK_SECRET: "leak-check-stripe-webhook-0008",
  AIRCALL_API_TOKEN: "leak-check-aircall-token-0009",
  AIRCALL_WEBHOOK_TOKEN: "leak-check-aircall-webhook-0010",
};

describe("GET /api/config", () => {
  it("points the local auth client at this origin with the local anon key", async () => {
    const res = await call("/api/config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ auth: { mode: "local", url: "http://localhost", anonKey: LOCAL_ANON_KEY }, localMailbox: true });
    expect(JSON.stringify(res.body)).not.toContain(DEV_AUTH_SECRET);
  });

  it("with Supabase configured, gives its URL and anon key and never a secret", async () => {
    const res = await call("/api/config", {
      bindings: { ...secrets, SUPABASE_URL: "https://project.supabase.example", SUPABASE_ANON_KEY: "public-anon-key" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      auth: { mode: "supabase", url: "https://project.supabase.example", anonKey: "public-anon-key" },
      localMailbox: false,
    });
    const text = JSON.stringify(res.body);
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
  });

  it("in local mode with every secret set, still exposes none", async () => {
    const res = await call("/api/config", { bindings: secrets });
    const text = JSON.stringify(res.body);
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
  });
});
