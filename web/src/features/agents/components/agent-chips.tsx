// The chip list that picks the agent in view (docs/product/screens-and-routes.md#route-table); an unsaved new agent has its own chip.
import { AGENT_TEXT } from "@shared/messages";
import { isAgentActive } from "@shared/agents";
import type { Agent } from "@shared/schemas/agents";
import { cn } from "@web/lib/utils";
import { useEffect, useRef } from "react";

type AgentChipsProps = {
  agents: readonly Agent[];
  draft: Agent | null;
  selectedId: number | null;
  onSelect: (id: number) => void;
};

export function AgentChips({ agents, draft, selectedId, onSelect }: AgentChipsProps) {
  const chips = draft ? [...agents, draft] : agents;
  const list = useRef<HTMLDivElement>(null);
  // On phones the chips form one scrolling row; keep the chosen one (e.g. a new draft at the end) in view.
  // The first chip is in view already: scrolling to it would only force a layout of the whole page
  // in the middle of its first render (decision 030).
  useEffect(() => {
    const chosen = list.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    if (chosen && chosen !== list.current?.firstElementChild) chosen.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [selectedId]);
  return (
    <div
      ref={list}
      role="group"
      aria-label={AGENT_TEXT.agentChips}
      // `relative`: the row must contain the chips' absolutely placed screen-reader text, or chips
      // scrolled out of the row still widen the whole page on phones.
      className="relative -mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0"
    >
      {chips.map((agent) => {
        const selected = agent.id === selectedId;
        const active = isAgentActive(agent);
        return (
          <button
            key={agent.id}
            type="button"
            aria-pressed={selected}
            onClick={() => onSelect(agent.id)}
            className={cn(
              "inline-flex max-w-full shrink-0 items-center gap-2 rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none",
              selected
                ? "border-primary bg-primary text-primary-foreground shadow-sm"
                : "border-border bg-card text-foreground hover:border-primary/40 hover:bg-accent",
            )}
          >
            <span
              className={cn(
                "size-2 shrink-0 rounded-full",
                active ? "bg-success" : selected ? "bg-primary-foreground/60" : "bg-muted-foreground/40",
              )}
              aria-hidden
            />
            <span className="truncate">{agent.name}</span>
            <span className="sr-only">{`(${active ? AGENT_TEXT.active : AGENT_TEXT.inactive})`}</span>
          </button>
        );
      })}
    </div>
  );
}
