// An agent card's Delete button and its confirmation. The button is the card's own, so it shows (and
// keeps focus) before the confirmation's code has arrived; that code, Radix AlertDialog with it,
// loads when the page is idle or at the first press (decision 037).
import { Trash2 } from "lucide-react";
import { AGENT_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/lib/toast-store";
import { useIdleDialog } from "@web/lib/idle-module";

const loadConfirm = () => import("./delete-agent-confirm");

export function DeleteAgentDialog({
  agent,
  onDelete,
}: {
  agent: Pick<Agent, "name" | "vapi_assistant_id">;
  onDelete: () => Promise<void>;
}) {
  const { module: confirm, open, setOpen, triggerProps } = useIdleDialog(loadConfirm, () =>
    toast({ variant: "destructive", title: AGENT_TEXT.deleteLoadFailed }),
  );
  return (
    <>
      <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" {...triggerProps}>
        <Trash2 aria-hidden />
        {AGENT_TEXT.delete}
      </Button>
      {confirm ? <confirm.DeleteAgentConfirm agent={agent} onDelete={onDelete} open={open} setOpen={setOpen} /> : null}
    </>
  );
}
