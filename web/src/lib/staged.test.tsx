import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useStaged } from "./staged";

describe("useStaged", () => {
  it("is false on the first render and true in the render right after, which commits separately", async () => {
    const seen: boolean[] = [];
    function Probe() {
      const rest = useStaged();
      seen.push(rest);
      return <p>{rest ? "rest" : "first"}</p>;
    }
    render(<Probe />);
    expect(await screen.findByText("rest")).toBeTruthy();
    expect(seen[0]).toBe(false);
    expect(seen.at(-1)).toBe(true);
    expect(seen.indexOf(true)).toBeGreaterThan(0);
  });
});
