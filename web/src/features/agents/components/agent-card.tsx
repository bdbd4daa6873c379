// The agent card (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/README.md#states-and-flows): a summary with Edit, Delete (only when a delete action is given),
// Activate / Deactivate, the 'Agent configuration incomplete' banner, and a test call when active.
// The number shown is the agent's own, formatted (docs/decisions/004: deliberate deviation).
import { Pencil, Power, PowerOff, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { formatPhone } from "@shared/format";
import { AGENT_TEXT } from "@shared/messages";
import { isAgentActive, isAgentIncomplete } from "@shared/agents";
import type { Agent } from "@shared/schemas/agents";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { SubmitButton } from "@web/components/ui/submit-button";
import { DeleteAgentDialog } from "./delete-agent-dialog";
import { TestCall } from "./test-call";

type AgentCardProps = {
  agent: Agent;
  /** The voice's display name, when the voice list knows it. */
  voiceName?: string;
  onEdit: () => void;
  onDelete?: () => Promise<void>;
  onActivate: () => void;
  onDeactivate: () => void;
  busy?: "activating" | "deactivating" | null;
};

export function AgentStatusBadge({ agent }: { agent: Pick<Agent, "vapi_assistant_id"> }) {
  return isAgentActive(agent) ? (
    <Badge variant="success">{AGENT_TEXT.active}</Badge>
  ) : (
    <Badge variant="outline">{AGENT_TEXT.inactive}</Badge>
  );
}

export function AgentCard({ agent, voiceName, onEdit, onDelete, onActivate, onDeactivate, busy = null }: AgentCardProps) {
  const active = isAgentActive(agent);
  const incomplete = isAgentIncomplete(agent);
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <CardTitle className="min-w-0 break-words">{agent.name}</CardTitle>
          <AgentStatusBadge agent={agent} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden />
            {AGENT_TEXT.edit}
          </Button>
          {onDelete ? <DeleteAgentDialog agent={agent} onDelete={onDelete} /> : null}
          {active ? (
            <SubmitButton
              type="button"
              variant="outline"
              size="sm"
              onClick={onDeactivate}
              disabled={busy !== null}
              pending={busy === "deactivating"}
              pendingLabel={AGENT_TEXT.deactivating}
              icon={<PowerOff aria-hidden />}
            >
              {AGENT_TEXT.deactivate}
            </SubmitButton>
          ) : (
            <SubmitButton
              type="button"
              size="sm"
              onClick={onActivate}
              disabled={busy !== null || incomplete}
              pending={busy === "activating"}
              pendingLabel={AGENT_TEXT.activating}
              icon={<Power aria-hidden />}
            >
              {AGENT_TEXT.activate}
            </SubmitButton>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        {incomplete ? (
          <div
            role="alert"
            className="flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4 sm:flex-row sm:items-center"
          >
            <TriangleAlert className="size-5 shrink-0 text-[oklch(0.55_0.13_70)]" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold">{AGENT_TEXT.incomplete}</p>
              <p className="text-sm text-muted-foreground">{AGENT_TEXT.incompleteText(missingFields(agent))}</p>
            </div>
            <Button variant="link" className="h-auto self-start p-0 sm:self-center" onClick={onEdit}>
              {AGENT_TEXT.completeConfiguration}
            </Button>
          </div>
        ) : null}
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <Detail label={AGENT_TEXT.businessDescriptionLabel} wide>
            {agent.business_description}
          </Detail>
          <Detail label={AGENT_TEXT.servicesLabel} wide>
            {agent.services}
          </Detail>
          <Detail label={AGENT_TEXT.voiceLabel}>{voiceName ?? agent.voice_id}</Detail>
          <Detail label={AGENT_TEXT.phoneNumberLabel}>{formatPhone(agent.phone_number)}</Detail>
          {agent.store ? <Detail label={AGENT_TEXT.storeLabel}>{agent.store}</Detail> : null}
          {agent.type ? <Detail label={AGENT_TEXT.typeLabel}>{agent.type}</Detail> : null}
        </dl>
        {active ? <TestCall key={agent.id} agentId={agent.id} /> : null}
      </CardContent>
    </Card>
  );
}

/** The empty fields that make an agent incomplete, in words: "services and agent instructions". */
export function missingFields(agent: Pick<Agent, "business_description" | "services" | "agent_instructions">): string {
  const missing = [
    [agent.business_description, AGENT_TEXT.businessDescriptionLabel],
    [agent.services, AGENT_TEXT.servicesLabel],
    [agent.agent_instructions, AGENT_TEXT.instructionsLabel],
  ]
    .filter(([value]) => !value?.trim())
    .map(([, label]) => label.toLowerCase());
  return missing.length > 1 ? `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}` : (missing[0] ?? "");
}

function Detail({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === "";
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 break-words whitespace-pre-line">{empty ? <span className="text-muted-foreground">—</span> : children}</dd>
    </div>
  );
}
