// The agents with their numbers (docs/product/screens-and-routes.md#route-table, docs/product/README.md#states-and-flows): an agent holds at most one number, so only agents
// without one are offered the account's unassigned numbers; an agent's number can be taken back.
import { ChevronDown, Link2, Unlink } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { formatPhone } from "@shared/format";
import { AGENT_TEXT, PHONE_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";
import type { OwnedPhoneNumber } from "@shared/schemas/phone-numbers";
import { NoneFreeNotice } from "@web/components/phone-numbers/none-free-notice";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { serverMessage } from "@web/lib/api";
import { useRefocusOnSwap } from "@web/lib/focus";
import { useDeferredFirst } from "@web/lib/staged";
import { cn } from "@web/lib/utils";
import { SELECT_TRIGGER_CLASS } from "@web/components/ui/select-trigger-class";
import { useAssignNumber, useMyNumbers, useUnassignNumber } from "@web/api/phone-numbers";
import { AgentStatusBadge } from "./agent-card";

// Radix Select comes when a row offers numbers (decision 035); until then a disabled trigger of the
// same size and label holds its place.
const AgentNumberSelect = lazy(() => import("./agent-number-select"));

function NumberSelectPlaceholder({ id, placeholder }: { id: string; placeholder: string }) {
  return (
    <button
      type="button"
      id={id}
      disabled
      data-placeholder=""
      className={cn(SELECT_TRIGGER_CLASS, "sm:w-52")}
    >
      <span>{placeholder}</span>
      <ChevronDown className="size-4 shrink-0 opacity-60" aria-hidden />
    </button>
  );
}

export function AgentNumbersList({ agents }: { agents: readonly Agent[] }) {
  const numbers = useMyNumbers();
  const owned = useDeferredFirst(numbers.data);
  const free = (owned?.numbers ?? []).filter((n) => n.agent_id == null);
  // Below the agent card on a phone: laid out only when it nears the screen (decision 035).
  return (
    <Card className="[contain-intrinsic-size:auto_16rem] [content-visibility:auto]">
      <CardHeader>
        <CardTitle>{AGENT_TEXT.numbersTitle}</CardTitle>
        <CardDescription>{AGENT_TEXT.numbersDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {numbers.isError ? (
          <p role="alert" className="mb-3 text-sm font-medium text-destructive">
            {PHONE_TEXT.loadFailed}
          </p>
        ) : null}
        <ul className="divide-y divide-border rounded-lg border border-border">
          {agents.map((agent) => (
            <AgentNumberRow key={agent.id} agent={agent} free={free} numbersLoading={owned === undefined && !numbers.isError} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function AgentNumberRow({ agent, free, numbersLoading }: { agent: Agent; free: OwnedPhoneNumber[]; numbersLoading: boolean }) {
  const [chosen, setChosen] = useState<string>("");
  const assign = useAssignNumber();
  const unassign = useUnassignNumber();
  const hasNumber = agent.twilio_number_id != null;
  const selectId = `assign-number-${agent.id}`;
  // Assign and Unassign replace one another: focus follows to the control that took the place.
  const row = useRef<HTMLLIElement>(null);
  useRefocusOnSwap(row, hasNumber);
  // A number taken meanwhile (by this screen or another) is no longer offered.
  const choice = free.some((n) => String(n.id) === chosen) ? chosen : "";

  async function onAssign() {
    if (!choice) return;
    try {
      await assign.mutateAsync({ phoneNumberId: Number(choice), agentId: agent.id });
      setChosen("");
      const phone = formatPhone(free.find((n) => String(n.id) === choice)?.phone_number);
      toast({ title: PHONE_TEXT.assignedTitle, description: PHONE_TEXT.assignedText(phone, agent.name) });
    } catch (err) {
      toast({ variant: "destructive", title: PHONE_TEXT.assignFailed, description: serverMessage(err) });
    }
  }

  async function onUnassign() {
    if (agent.twilio_number_id == null) return;
    try {
      await unassign.mutateAsync({ phoneNumberId: agent.twilio_number_id });
      toast({ title: PHONE_TEXT.unassignedTitle, description: formatPhone(agent.phone_number) });
    } catch (err) {
      toast({ variant: "destructive", title: PHONE_TEXT.unassignFailed, description: serverMessage(err) });
    }
  }

  return (
    <li ref={row} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between sm:p-4" data-testid={`agent-number-${agent.id}`}>
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate font-medium">{agent.name}</span>
          <AgentStatusBadge agent={agent} />
        </div>
        <p className="mt-0.5 text-sm text-muted-foreground">{formatPhone(agent.phone_number)}</p>
      </div>
      {hasNumber ? (
        <SubmitButton
          type="button"
          variant="outline"
          size="sm"
          onClick={onUnassign}
          pending={unassign.isPending}
          pendingLabel={PHONE_TEXT.unassign}
          icon={<Unlink aria-hidden />}
          className="self-start sm:self-auto"
        >
          {PHONE_TEXT.unassign}
        </SubmitButton>
      ) : numbersLoading ? (
        <Spinner className="size-4" />
      ) : free.length === 0 ? (
        <NoneFreeNotice text={AGENT_TEXT.noFreeNumbers} to="/phone-numbers" linkText={AGENT_TEXT.buyNumber} />
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <label htmlFor={selectId} className="sr-only">
            {AGENT_TEXT.numberFor(agent.name)}
          </label>
          <Suspense fallback={<NumberSelectPlaceholder id={selectId} placeholder={AGENT_TEXT.chooseNumber} />}>
            <AgentNumberSelect id={selectId} value={choice} onValueChange={setChosen} free={free} placeholder={AGENT_TEXT.chooseNumber} />
          </Suspense>
          <SubmitButton type="button" size="sm" onClick={onAssign} disabled={!choice} pending={assign.isPending} pendingLabel={AGENT_TEXT.assign} icon={<Link2 aria-hidden />}>
            {AGENT_TEXT.assign}
          </SubmitButton>
        </div>
      )}
    </li>
  );
}
