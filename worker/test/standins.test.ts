import { describe, expect, it } from "vitest";
import { inject } from "vitest";

describe("vendor stand-ins", () => {
  it("are reachable over loopback HTTP from the worker runtime", async () => {
    const url = inject("standins").echo;
    const res = await fetch(`${url}/v1/ping`, { method: "POST", body: "hello" });
    expect(await res.json()).toEqual({ method: "POST", path: "/v1/ping", body: "hello" });
  });
});
