// Links a number to an agent. An agent holds at most one number, so only agents without one are offered.
import { useId, useState } from "react";
import { formatPhone } from "@shared/format";
import { NAV_TEXT, PHONE_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";
import type { OwnedPhoneNumber } from "@shared/schemas/phone-numbers";
import { NoneFreeNotice } from "@web/components/phone-numbers/none-free-notice";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Label } from "@web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useAssignNumber } from "@web/api/phone-numbers";

/** Agents that can take a number: none linked yet. */
export function agentsWithoutNumber(agents: readonly Agent[]): Agent[] {
  return agents.filter((a) => a.twilio_number_id == null && !a.assigned_phone_number);
}

type AssignAgentDialogProps = {
  number: OwnedPhoneNumber | null;
  agents: readonly Agent[] | undefined;
  agentsLoading: boolean;
  onClose: () => void;
};

export function AssignAgentDialog({ number, agents, agentsLoading, onClose }: AssignAgentDialogProps) {
  const assign = useAssignNumber();
  const [agentId, setAgentId] = useState("");
  const selectId = useId();
  const free = agentsWithoutNumber(agents ?? []);
  const phone = number ? formatPhone(number.phone_number) : "";

  function close(open: boolean) {
    if (open || assign.isPending) return;
    setAgentId("");
    onClose();
  }

  async function submit() {
    if (!number || !agentId) return;
    const agent = free.find((a) => String(a.id) === agentId);
    try {
      await assign.mutateAsync({ phoneNumberId: number.id, agentId: Number(agentId) });
      toast({ title: PHONE_TEXT.assignedTitle, description: PHONE_TEXT.assignedText(phone, agent?.name ?? "") });
      setAgentId("");
      onClose();
    } catch (err) {
      toast({
        variant: "destructive",
        title: PHONE_TEXT.assignToAgentFailed,
        description: errorMessage(err, PHONE_TEXT.assignFailed),
      });
    }
  }

  return (
    <Dialog open={number !== null} onOpenChange={close}>
      <DialogContent closeLabel={PHONE_TEXT.close} className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{PHONE_TEXT.assignTitle}</DialogTitle>
          <DialogDescription>{PHONE_TEXT.assignText(phone)}</DialogDescription>
        </DialogHeader>
        {agentsLoading ? (
          <Spinner />
        ) : free.length === 0 ? (
          <NoneFreeNotice text={PHONE_TEXT.noFreeAgents} to="/agent-settings" linkText={NAV_TEXT.agents} />
        ) : (
          <div className="grid gap-2">
            <Label htmlFor={selectId}>{PHONE_TEXT.agentLabel}</Label>
            <Select value={agentId} onValueChange={setAgentId}>
              <SelectTrigger id={selectId}>
                <SelectValue placeholder={PHONE_TEXT.chooseAgent} />
              </SelectTrigger>
              <SelectContent>
                {free.map((a) => (
                  <SelectItem key={a.id} value={String(a.id)}>
                    {a.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)} disabled={assign.isPending}>
            {PHONE_TEXT.cancel}
          </Button>
          <SubmitButton type="button" onClick={() => void submit()} disabled={!agentId} pending={assign.isPending}>
            {assign.isPending ? PHONE_TEXT.assigning : PHONE_TEXT.assign}
          </SubmitButton>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
