// The first requests must never stop the app: the app's entry sends them first, so a throw there would leave
// the page blank.
import { afterEach, expect, it, vi } from "vitest";
import { setAccessToken } from "@web/lib/api";
import { sendEarlyRequests } from "./early-requests";

vi.mock("@web/features/dashboard/api/first-load-urls", () => ({
  firstLoadUrls: () => {
    throw new RangeError("Invalid time zone specified: America/New_York");
  },
}));

const base64Url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const TOKEN = `${base64Url({ alg: "HS256" })}.${base64Url({ sub: "u1", app_metadata: { shopwindows_info: true } })}.signature`;

afterEach(() => {
  setAccessToken(null);
  vi.unstubAllGlobals();
});

it("still asks for the profile, and leaves the sections to ask themselves, when the dashboard's first reads cannot be worked out", async () => {
  const fetchMock = vi.fn(async (_url: string) => Response.json({ id: "u1" }));
  vi.stubGlobal("fetch", fetchMock);
  let early: ReturnType<typeof sendEarlyRequests> | undefined;
  expect(() => (early = sendEarlyRequests("/dashboard", TOKEN))).not.toThrow();
  expect(early!.dashboard).toBeNull();
  await expect(early!.profile).resolves.toEqual({ id: "u1" });
  expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(["/api/profile"]);
});
