import { describe, expect, it } from "vitest";
import { claimedViewer } from "./token-claims";

const base64Url = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
const jwt = (payload: unknown) => `${base64Url({ alg: "HS256", typ: "JWT" })}.${base64Url(payload)}.sig`;

describe("claimedViewer", () => {
  it("reads the subject and the flags as the server reads them (true, \"true\" or 1)", () => {
    expect(claimedViewer(jwt({ sub: "u1", app_metadata: { shopwindows_info: true, call_app: "true" } }))).toEqual({ id: "u1", shopwindows_info: true, call_app: true });
    expect(claimedViewer(jwt({ sub: "u2", app_metadata: { shopwindows_info: 1, call_app: false } }))).toEqual({ id: "u2", shopwindows_info: true, call_app: false });
    expect(claimedViewer(jwt({ sub: "u3", app_metadata: { shopwindows_info: "yes", call_app: 0 } }))).toEqual({ id: "u3", shopwindows_info: false, call_app: false });
    expect(claimedViewer(jwt({ sub: "u4" }))).toEqual({ id: "u4", shopwindows_info: false, call_app: false });
  });

  it("reads base64url payloads with any bytes (names outside ASCII)", () => {
    expect(claimedViewer(jwt({ sub: "ü-ß-€", user_metadata: { name: "Zoë ~~~???>>>" }, app_metadata: { call_app: true } }))?.id).toBe("ü-ß-€");
  });

  it("is null for anything that is not a JWT with a subject", () => {
    expect(claimedViewer("access-1")).toBeNull();
    expect(claimedViewer("a.b")).toBeNull();
    expect(claimedViewer("a.%%%.c")).toBeNull();
    expect(claimedViewer(jwt({ app_metadata: { call_app: true } }))).toBeNull();
    expect(claimedViewer(jwt({ sub: "" }))).toBeNull();
    expect(claimedViewer(jwt(["u1"]))).toBeNull();
  });
});
