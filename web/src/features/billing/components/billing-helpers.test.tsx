// The pages' readings of their links: the session id (query or hash) and the activation link's
// token, session or error (the hash only).
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
  it("reads the one-time token from the hash, Supabase's hash tokens and errors, and never session tokens from the query", () => {
    expect(activationParams({ email: "a@b.co" }, "#token_hash=th&type=invite")).toMatchObject({
      email: "a@b.co",
      link: { tokenHash: "th", type: "invite" },
      accessToken: "",
      error: null,
    });
    // Only an activation token: another kind of link is not spent here.
    expect(activationParams({}, "#token_hash=th&type=recovery").link).toBeNull();
    const fromQuery = activationParams({ email: "a@b.co", access_token: "at", refresh_token: "rt" } as never, "");
    expect(fromQuery).toMatchObject({ email: "a@b.co", accessToken: "", refreshToken: "", link: null });
    expect(activationParams({}, "#access_token=x&refresh_token=y&type=invite")).toMatchObject({ accessToken: "x", refreshToken: "y" });
    expect(activationParams({}, "#error=access_denied&error_code=otp_expired")).toMatchObject({ error: "access_denied", errorCode: "otp_expired" });
  });
});
