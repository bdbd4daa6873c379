import type { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CurrentUserView } from "@shared/schemas/auth";
import { BOOKMARK_HEADER } from "@shared/d1-bookmarks";
import { currentBookmarks, keepBookmarks, resetBookmarks } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { currentUserKeys } from "./profile-key";
import { askProfileEarly, EARLY_TOKEN_MARGIN_SECONDS, joinEarlyProfile, keepEarlyProfile, storedAccessToken } from "./early-profile";

/** The first request and the entry's start keeping its answer, as the page makes them. */
const prefetchProfile = (client: QueryClient, token: string | null) => keepEarlyProfile(client, askProfileEarly(token));

const NOW = Date.UTC(2026, 10, 23, 12);
const KEY = "sb-127-auth-token";

function storageWith(entries: Record<string, string>): Storage {
  const map = new Map(Object.entries(entries));
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const session = (expiresInSeconds: number, token = "access-1") =>
  JSON.stringify({ access_token: token, refresh_token: "r", expires_at: Math.floor(NOW / 1000) + expiresInSeconds });

afterEach(() => {
  vi.unstubAllGlobals();
  resetBookmarks();
});

describe("storedAccessToken", () => {
  it("reads supabase-js's stored session when its token has time left", () => {
    expect(storedAccessToken(storageWith({ other: "x", [KEY]: session(3600) }), NOW)).toBe("access-1");
  });

  it("leaves a token close to expiry, another key, a malformed entry or unreadable storage to supabase-js", () => {
    expect(storedAccessToken(storageWith({ [KEY]: session(EARLY_TOKEN_MARGIN_SECONDS - 1) }), NOW)).toBeNull();
    expect(storedAccessToken(storageWith({ "sb-127-auth-token-code-verifier": session(3600) }), NOW)).toBeNull();
    expect(storedAccessToken(storageWith({ [KEY]: "{not json" }), NOW)).toBeNull();
    expect(storedAccessToken(storageWith({ [KEY]: JSON.stringify({ access_token: "a" }) }), NOW)).toBeNull();
    const broken = { get length(): number { throw new Error("denied"); } } as unknown as Storage;
    expect(storedAccessToken(broken, NOW)).toBeNull();
  });
});

describe("the early profile request", () => {
  const profile = { id: "u1", email: "staff@demo.local" };

  it("asks for the profile with the token and keeps a success in the query cache", async () => {
    const fetchMock = vi.fn(async () => Response.json(profile));
    vi.stubGlobal("fetch", fetchMock);
    const client = createQueryClient();
    await prefetchProfile(client, "tok");
    expect(fetchMock).toHaveBeenCalledWith("/api/profile", { headers: { Authorization: "Bearer tok" } });
    expect(client.getQueryData(currentUserKeys.all)).toEqual(profile);
  });

  it("sends the tab's D1 bookmarks, as every API request does, and keeps the answer's", async () => {
    // A write earlier in this tab left its bookmark (kept by the API client, in sessionStorage too).
    keepBookmarks(new Response(null, { headers: { [BOOKMARK_HEADER]: "DB=0000001a-00000001" } }));
    const fetchMock = vi.fn(async () => Response.json(profile, { headers: { [BOOKMARK_HEADER]: "DB=0000001b-00000002" } }));
    vi.stubGlobal("fetch", fetchMock);
    await prefetchProfile(createQueryClient(), "tok");
    expect(fetchMock).toHaveBeenCalledWith("/api/profile", { headers: { Authorization: "Bearer tok", [BOOKMARK_HEADER]: "DB=0000001a-00000001" } });
    expect(currentBookmarks()).toEqual({ DB: "0000001b-00000002" });
    expect(sessionStorage.getItem("d1-bookmarks")).toBe("DB=0000001b-00000002");
  });

  it("keeps nothing on a refusal or a network failure, and asks nothing without a token", async () => {
    const client = createQueryClient();
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ error: "Unauthorized", code: "unauthorized" }, { status: 401 })));
    await prefetchProfile(client, "revoked");
    expect(client.getQueryState(currentUserKeys.all)).toBeUndefined();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    await prefetchProfile(client, "tok");
    expect(client.getQueryState(currentUserKeys.all)).toBeUndefined();
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    await prefetchProfile(client, null);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("does not overwrite a profile the provider already has", async () => {
    const client = createQueryClient();
    client.setQueryData(currentUserKeys.all, { id: "u1", email: "newer@demo.local" });
    vi.stubGlobal("fetch", vi.fn(async () => Response.json(profile)));
    await prefetchProfile(client, "tok");
    expect(client.getQueryData(currentUserKeys.all)).toEqual({ id: "u1", email: "newer@demo.local" });
  });

  it("answers the provider's ask from the request in flight, so the profile is asked for once", async () => {
    let answer!: (res: Response) => void;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal("fetch", fetchMock);
    const client = createQueryClient();
    const early = prefetchProfile(client, "tok");
    const asked = { ...profile, email: "asked@demo.local" } as CurrentUserView;
    const ask = vi.fn(async () => asked);
    const joined = joinEarlyProfile(ask);
    answer(Response.json(profile));
    await expect(joined).resolves.toEqual(profile);
    await early;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(ask).not.toHaveBeenCalled();
    // Settled, it is not reused: a later ask (a refetch) asks.
    await expect(joinEarlyProfile(ask)).resolves.toEqual(asked);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it("lets the provider ask itself when the early request fails", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ error: "Unauthorized", code: "unauthorized" }, { status: 401 })));
    const client = createQueryClient();
    const early = prefetchProfile(client, "stale");
    const ask = vi.fn(async () => profile as CurrentUserView);
    await expect(joinEarlyProfile(ask)).resolves.toEqual(profile);
    expect(ask).toHaveBeenCalledTimes(1);
    await early;
  });
});
