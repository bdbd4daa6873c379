import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CallStatusBadge, callStatusVariant } from "./call-status-badge";

describe("call status badge", () => {
  it("maps completed and ended to success, queued to pending, anything else to default", () => {
    expect(callStatusVariant("completed")).toBe("success");
    expect(callStatusVariant("ended")).toBe("success");
    expect(callStatusVariant("Completed")).toBe("success");
    expect(callStatusVariant("queued")).toBe("pending");
    expect(callStatusVariant("in-progress")).toBe("default");
    expect(callStatusVariant("failed")).toBe("default");
    expect(callStatusVariant("")).toBe("default");
    expect(callStatusVariant(null)).toBe("default");
  });

  it("counts 'ended' as success only in the list, not in the details", () => {
    expect(callStatusVariant("ended", "detail")).toBe("default");
    expect(callStatusVariant("completed", "detail")).toBe("success");
  });

  it("renders the status text in the mapped style", () => {
    render(
      <>
        <CallStatusBadge status="ended" />
        <CallStatusBadge status="queued" />
        <CallStatusBadge status="ringing" />
      </>,
    );
    expect(screen.getByText("ended").getAttribute("data-variant")).toBe("success");
    expect(screen.getByText("ended").className).toContain("bg-success");
    expect(screen.getByText("queued").getAttribute("data-variant")).toBe("pending");
    expect(screen.getByText("queued").className).toContain("bg-warning");
    expect(screen.getByText("ringing").getAttribute("data-variant")).toBe("default");
  });
});
