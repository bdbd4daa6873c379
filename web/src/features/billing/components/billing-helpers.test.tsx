// The pages' readings of their links: the session id (query or hash) and the activation link's
// tokens and errors (query, or the hash as Supabase sends them).
import { describe, expect, it } from "vitest";
import { activationParams } from "./activate-account-page";
import { sessionIdFrom } from "./payment-success-page";

describe("payment success link", () => {
  it("takes the session id from the query, else the hash", () => {
    expect(sessionIdFrom("cs_1", "#session_id=cs_2")).toBe("cs_1");
    expect(sessionIdFrom(undefined, "#session_id=cs_2")).toBe("cs_2");
    expect(sessionIdFrom(undefined, "")).toBeUndefined();
  });
});

describe("activation link", () => {
  it("reads tokens from the query, and Supabase's hash tokens and errors", () => {
    expect(activationParams({ email: "a@b.co", access_token: "at", refresh_token: "rt" }, "")).toMatchObject({ email: "a@b.co", accessToken: "at", refreshToken: "rt", error: null });
    expect(activationParams({}, "#access_token=x&refresh_token=y&type=invite")).toMatchObject({ accessToken: "x", refreshToken: "y" });
    expect(activationParams({}, "#error=access_denied&error_code=otp_expired")).toMatchObject({ error: "access_denied", errorCode: "otp_expired" });
  });
});
