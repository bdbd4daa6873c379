// The delete confirmation (docs/product/errors-and-texts.md#error-answers): Delete agent “{name}”?, 'This action cannot be undone',
// and, for an active agent, what happens to its assistant on the voice platform. Radix AlertDialog,
// in a chunk of its own that delete-agent-dialog.tsx loads when the page is idle (decision 037).
import { useState } from "react";
import { AGENT_TEXT } from "@shared/messages";
import { isAgentActive } from "@shared/agents";
import type { Agent } from "@shared/schemas/agents";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@web/components/ui/alert-dialog";
import { Spinner } from "@web/components/ui/spinner";

export function DeleteAgentConfirm({
  agent,
  onDelete,
  open,
  setOpen,
}: {
  agent: Pick<Agent, "name" | "vapi_assistant_id">;
  onDelete: () => Promise<void>;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const [deleting, setDeleting] = useState(false);
  const active = isAgentActive(agent);

  async function confirm() {
    setDeleting(true);
    // onDelete answers with its own toast either way; the question is closed afterwards.
    try {
      await onDelete();
    } finally {
      setDeleting(false);
      setOpen(false);
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !deleting && setOpen(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{AGENT_TEXT.deleteTitle(agent.name)}</AlertDialogTitle>
          {/* The note is part of the description, so a screen reader announces it with the question. */}
          <AlertDialogDescription asChild>
            <div className="grid gap-2">
              <p>{AGENT_TEXT.deleteUndone}</p>
              {active ? <p className="rounded-md bg-warning/15 px-3 py-2 text-foreground">{AGENT_TEXT.deleteAssistantNote}</p> : null}
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleting}>{AGENT_TEXT.cancel}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={deleting}
            onClick={(e) => {
              // Stay open, with a spinner, until the server answered.
              e.preventDefault();
              void confirm();
            }}
          >
            {deleting ? <Spinner className="size-4 text-destructive-foreground" label={AGENT_TEXT.deleting} /> : null}
            {AGENT_TEXT.delete}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
