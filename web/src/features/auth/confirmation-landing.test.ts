import { describe, expect, it } from "vitest";
import { readConfirmationLanding } from "./confirmation-landing";

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const token = (claims: object) => `${b64({ alg: "ES256" })}.${b64(claims)}.sig`;

describe("readConfirmationLanding", () => {
  it("reads the confirmed address from a Supabase confirmation fragment (signup or email change)", () => {
    const t = token({ email: "new.owner@example.com", sub: "u1" });
    for (const type of ["signup", "email_change"]) {
      expect(readConfirmationLanding(`#access_token=${t}&refresh_token=r&expires_in=3600&token_type=bearer&type=${type}`)).toEqual({
        email: "new.owner@example.com",
        accessToken: t,
      });
    }
  });

  it("ignores recovery links, error fragments and empty hashes", () => {
    expect(readConfirmationLanding(`#access_token=${token({ email: "a@b.c" })}&type=recovery`)).toBeNull();
    expect(readConfirmationLanding("#error=access_denied&error_code=otp_expired")).toBeNull();
    expect(readConfirmationLanding("")).toBeNull();
  });

  it("still confirms when the token cannot be read, with no email", () => {
    expect(readConfirmationLanding("#access_token=garbage&type=signup")).toEqual({ email: "", accessToken: "garbage" });
  });
});
