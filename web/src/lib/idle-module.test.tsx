import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useIdleModule } from "./idle-module";

afterEach(() => vi.unstubAllGlobals());

/** A load that answers when the test says so. */
function deferredLoad<M>() {
  let settle: { resolve: (m: M) => void; reject: (e: unknown) => void } = { resolve: () => {}, reject: () => {} };
  const load = vi.fn(() => new Promise<M>((resolve, reject) => (settle = { resolve, reject })));
  return { load, settle: () => settle };
}

describe("useIdleModule", () => {
  it("loads the module once the page is idle after load, without being asked", async () => {
    let idle: (() => void) | null = null;
    vi.stubGlobal("requestIdleCallback", (cb: () => void) => ((idle = cb), 1));
    const { load, settle } = deferredLoad<{ name: string }>();
    const { result } = renderHook(() => useIdleModule(load, () => {}));
    expect(load).not.toHaveBeenCalled();
    act(() => idle!());
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => settle().resolve({ name: "drawer" }));
    expect(result.current.module).toEqual({ name: "drawer" });
  });

  it("runs what was asked for before the module arrived once it does, and at once afterwards", async () => {
    vi.stubGlobal("requestIdleCallback", () => 1);
    const { load, settle } = deferredLoad<string>();
    const { result } = renderHook(() => useIdleModule(load, () => {}));
    const used: string[] = [];
    act(() => result.current.withModule((m) => used.push(`first ${m}`)));
    expect(used).toEqual([]);
    await act(async () => settle().resolve("menu"));
    expect(used).toEqual(["first menu"]);
    act(() => result.current.withModule((m) => used.push(`second ${m}`)));
    expect(used).toEqual(["first menu", "second menu"]);
  });

  it("says so when the module cannot load, and runs nothing", async () => {
    vi.stubGlobal("requestIdleCallback", () => 1);
    const { load, settle } = deferredLoad<string>();
    const onFailure = vi.fn();
    const { result } = renderHook(() => useIdleModule(load, onFailure));
    const use = vi.fn();
    act(() => result.current.withModule(use));
    await act(async () => settle().reject(new Error("offline")));
    await waitFor(() => expect(onFailure).toHaveBeenCalledTimes(1));
    expect(use).not.toHaveBeenCalled();
    expect(result.current.module).toBeNull();
  });
});
