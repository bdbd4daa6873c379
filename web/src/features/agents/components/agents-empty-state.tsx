// No agents yet (docs/product/screens-and-routes.md#route-table): 'Create Your AI Agent' with 'Create My First Agent'.
import { Bot, Sparkles } from "lucide-react";
import { AGENT_TEXT } from "@shared/messages";
import { Card, CardContent } from "@web/components/ui/card";
import { SubmitButton } from "@web/components/ui/submit-button";

export function AgentsEmptyState({ onCreate, creating }: { onCreate: () => void; creating: boolean }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 px-6 py-12 text-center">
        <span className="grid size-14 place-items-center rounded-full bg-secondary text-primary" aria-hidden>
          <Bot className="size-7" />
        </span>
        <div className="grid gap-1">
          <h2 className="text-xl font-semibold tracking-tight">{AGENT_TEXT.emptyTitle}</h2>
          <p className="max-w-md text-sm text-muted-foreground">{AGENT_TEXT.emptyText}</p>
        </div>
        <SubmitButton type="button" size="lg" onClick={onCreate} pending={creating} pendingLabel={AGENT_TEXT.creating} icon={<Sparkles aria-hidden />}>
          {AGENT_TEXT.emptyButton}
        </SubmitButton>
      </CardContent>
    </Card>
  );
}
