import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AGENT_TEXT } from "@shared/messages";
import { makeAgent } from "../test/render-agents";
import { AgentChips } from "./agent-chips";

describe("AgentChips", () => {
  it("keeps every chip inside its scrolling row, so many agents never widen the page on phones", () => {
    const agents = Array.from({ length: 18 }, (_, i) => makeAgent({ id: i + 1, name: `Store agent ${i + 1}` }));
    render(<AgentChips agents={agents} draft={null} selectedId={1} onSelect={vi.fn()} />);
    const row = screen.getByRole("group", { name: AGENT_TEXT.agentChips });
    const classes = row.className.split(/\s+/);
    // On phones the row scrolls sideways.
    expect(classes).toContain("overflow-x-auto");
    // Each chip says its status in absolutely placed screen-reader text. An absolutely placed box is
    // clipped by a scrolling ancestor only when that ancestor (or something inside it) is positioned:
    // without it, the text of chips scrolled out of view sets the page width (4,370 px at 390 px).
    const statusTexts = row.querySelectorAll(".sr-only");
    expect(statusTexts).toHaveLength(agents.length);
    for (const text of statusTexts) {
      let positioned = false;
      for (let el = text.parentElement; el && !positioned; el = el === row ? null : el.parentElement) {
        positioned = /(^|\s)(relative|absolute|fixed|sticky)(\s|$)/.test(el.className);
      }
      expect(positioned).toBe(true);
    }
  });

  it("scrolls a chosen chip into view, but not the first one, which is in view already", () => {
    const scrolled: string[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, "scrollIntoView").mockImplementation(function (this: HTMLElement) {
      scrolled.push(this.textContent ?? "");
    });
    try {
      const agents = Array.from({ length: 5 }, (_, i) => makeAgent({ id: i + 1, name: `Store agent ${i + 1}` }));
      const { rerender } = render(<AgentChips agents={agents} draft={null} selectedId={1} onSelect={vi.fn()} />);
      expect(scrolled).toEqual([]);
      rerender(<AgentChips agents={agents} draft={null} selectedId={4} onSelect={vi.fn()} />);
      expect(scrolled).toHaveLength(1);
      expect(scrolled[0]).toContain("Store agent 4");
    } finally {
      spy.mockRestore();
    }
  });
});
