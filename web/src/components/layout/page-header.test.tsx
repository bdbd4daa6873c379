import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PageHeader } from "./page-header";

describe("PageHeader", () => {
  it("names the screen in its heading and in the document title", () => {
    const { rerender } = render(<PageHeader title="Call Logs" />);
    expect(screen.getByRole("heading", { level: 1, name: "Call Logs" })).toBeTruthy();
    expect(document.title).toBe("Call Logs · Voice Agent Ops");
    rerender(<PageHeader title="Phone numbers" />);
    expect(document.title).toBe("Phone numbers · Voice Agent Ops");
  });
});
