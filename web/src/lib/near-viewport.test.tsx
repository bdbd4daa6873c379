import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useNearViewport } from "./near-viewport";

function Part() {
  const [ref, near] = useNearViewport<HTMLDivElement>("100px");
  return <div ref={ref}>{near ? "drawn" : "placeholder"}</div>;
}

describe("useNearViewport", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is false until the element comes near the viewport, then stays true", () => {
    const observers: { callback: IntersectionObserverCallback; options?: IntersectionObserverInit; disconnected: boolean }[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        entry: (typeof observers)[number];
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          this.entry = { callback, options, disconnected: false };
          observers.push(this.entry);
        }
        observe() {}
        disconnect() {
          this.entry.disconnected = true;
        }
      },
    );
    render(<Part />);
    expect(screen.getByText("placeholder")).toBeTruthy();
    expect(observers[0].options?.rootMargin).toBe("100px");
    const fire = (isIntersecting: boolean) =>
      act(() => observers[0].callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));
    fire(false);
    expect(screen.getByText("placeholder")).toBeTruthy();
    fire(true);
    expect(screen.getByText("drawn")).toBeTruthy();
    expect(observers[0].disconnected).toBe(true);
  });

  it("counts the element as near at once where there is no IntersectionObserver", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    render(<Part />);
    expect(screen.getByText("drawn")).toBeTruthy();
  });
});
