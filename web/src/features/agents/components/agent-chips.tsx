// The chip list that picks the agent in view (spec 2 §2); an unsaved new agent has its own chip.
import { AGENT_TEXT } from "@shared/messages";
import { isAgentActive, type Agent } from "@shared/schemas/agents";
import { cn } from "@web/lib/utils";

type AgentChipsProps = {
  agents: readonly Agent[];
  draft: Agent | null;
  selectedId: number | null;
  onSelect: (id: number) => void;
};

export function AgentChips({ agents, draft, selectedId, onSelect }: AgentChipsProps) {
  const chips = draft ? [...agents, draft] : agents;
  return (
    <div role="group" aria-label={AGENT_TEXT.agentChips} className="flex flex-wrap gap-2">
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
              "inline-flex max-w-full items-center gap-2 rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none",
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
