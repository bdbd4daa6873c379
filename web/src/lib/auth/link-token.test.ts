import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("@web/lib/auth-client", () => ({ getAppConfig: async () => ({ auth: { url: "http://app.example", anonKey: "anon" } }) }));
const endLinkSession = vi.fn();
vi.mock("./end-link-session", () => ({ endLinkSession }));

const { confirmLink, LinkError, readLinkToken } = await import("./link-token");

afterEach(() => vi.unstubAllGlobals());

describe("readLinkToken", () => {
  it("reads the token and kind from the fragment, only of the kinds asked for", () => {
    expect(readLinkToken("#token_hash=abc&type=signup")).toEqual({ tokenHash: "abc", type: "signup" });
    expect(readLinkToken("#token_hash=abc&type=recovery", ["signup", "email_change"])).toBeNull();
    expect(readLinkToken("#token_hash=abc&type=magic")).toBeNull();
    expect(readLinkToken("#access_token=x&type=signup")).toBeNull();
    expect(readLinkToken("")).toBeNull();
  });
});

describe("confirmLink", () => {
  it("spends the link with a POST and answers the confirmed address; a session in the answer is ended", async () => {
    const fetchMock = vi.fn(async () => Response.json({ access_token: "at", user: { email: "new@x.co" } }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(confirmLink({ tokenHash: "abc", type: "email_change" })).resolves.toEqual({ email: "new@x.co" });
    expect(fetchMock).toHaveBeenCalledWith("http://app.example/auth/v1/verify", expect.objectContaining({ method: "POST", body: JSON.stringify({ type: "email_change", token_hash: "abc" }) }));
    await vi.waitFor(() => expect(endLinkSession).toHaveBeenCalledWith("at"));
  });

  it("reads a bare user (local service) and refuses with the service's code", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ email: "me@x.co" })));
    await expect(confirmLink({ tokenHash: "abc", type: "signup" })).resolves.toEqual({ email: "me@x.co" });
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ code: "otp_expired", error_code: "otp_expired", msg: "Email link has expired" }, { status: 403 })));
    const refused = await confirmLink({ tokenHash: "abc", type: "signup" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LinkError);
    expect((refused as InstanceType<typeof LinkError>).code).toBe("otp_expired");
  });
});
