// The Agents screen (/agent-settings, docs/product/screens-and-routes.md#route-table): header with 'Add New Agent' and this month's usage,
// the agent chips, the selected agent's card or form, and the agents with their numbers.
import { planErrorDescription } from "@web/components/plans/plan-error";
import { PlanRequiredNotice } from "@web/components/plans/plan-required-notice";
import { useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useReducer, useRef } from "react";
import { NEW_AGENT_ID } from "@shared/constants";
import { AGENT_TEXT, PHONE_TEXT } from "@shared/messages";
import { nextNewAgentName } from "@shared/agents";
import type { Agent } from "@shared/schemas/agents";
import { PageHeader } from "@web/components/layout/page-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { toast, type ToastInput } from "@web/lib/toast-store";
import { removeCachedAgent, upsertCachedAgent, useAgents } from "@web/api/agents";
import { UsageFigures } from "@web/components/usage/usage-figures";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { ApiError, serverMessage } from "@web/lib/api";
import { useRefocusOnSwap } from "@web/lib/focus";
import { useIdleModule } from "@web/lib/idle-module";
import { useDeferredFirst } from "@web/lib/staged";
import { currentAgent, editorReducer, initialEditorState } from "../agent-editor";
import { useActivateAgent } from "../api/activate-agent";
import { useCreateDefaultAgent } from "../api/create-default-agent";
import { useDeactivateAgent } from "../api/deactivate-agent";
import { useDeleteAgent } from "../api/delete-agent";
import { useVoices } from "../api/get-voices";
import { useCreateAgent, useUpdateAgent } from "../api/save-agent";
import { AgentCard } from "./agent-card";
import { AgentChips } from "./agent-chips";
import type { AgentFormValues } from "./agent-form";
import { AgentNumbersList } from "./agent-numbers-list";
import { AgentsEmptyState } from "./agents-empty-state";

// The form (react-hook-form, zod and the agent schemas, about 55 KB gz) is not needed to show the
// agents: it loads once the page is idle, or when an agent is first edited or added, and the editor
// opens when it is there, so the swap from card to form stays one render (decision 032).
const loadAgentForm = () => import("./agent-form");

/** The agent form loads when the page is idle or an agent is first edited; a failed load says so. */
const useAgentForm = () => {
  const { module: form, withModule: withForm } = useIdleModule(loadAgentForm, () => toast({ variant: "destructive", title: AGENT_TEXT.editorLoadFailed }));
  return { form, withForm };
};

/** A name the server refused (docs/product/errors-and-texts.md#validation-messages), else the given failure. */
function saveFailure(err: unknown, fallback: ToastInput): ToastInput {
  const body = err instanceof ApiError ? err.body : null;
  if (body?.code === "duplicate_name")
    return { variant: "destructive", title: AGENT_TEXT.duplicateTitle, description: AGENT_TEXT.duplicate };
  if (err instanceof ApiError && err.status === 400 && body?.field === "name") {
    return { variant: "destructive", title: AGENT_TEXT.nameRequiredTitle, description: body.error || AGENT_TEXT.nameRequired };
  }
  return { variant: "destructive", ...fallback };
}

/** `email`: the account's, for the link to the plans. */
export function AgentsPage({ userId, email }: { userId: string; email?: string }) {
  const queryClient = useQueryClient();
  const agentsQuery = useAgents(userId);
  // The first list renders in a transition React slices, not in one long task (decision 035).
  const list = useDeferredFirst(agentsQuery.data);
  const voices = useVoices();
  const [state, dispatch] = useReducer(editorReducer, initialEditorState);
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const createDefault = useCreateDefaultAgent();
  const activate = useActivateAgent();
  const deactivate = useDeactivateAgent();
  const remove = useDeleteAgent();

  const agents = list?.agents ?? [];
  const current = currentAgent(state, agents);
  const editing = current !== null && (state.editing || current.id === NEW_AGENT_ID);
  const upsert = (agent: Agent) => upsertCachedAgent(queryClient, userId, agent);
  // Edit, Save and Cancel swap the card and the form, removing the focused button with them: focus
  // goes to the first control of whichever took its place (the name field, or the card's Edit).
  const editor = useRef<HTMLDivElement>(null);
  // The editor opens only through withForm (Edit, Add, and a draft's chip, which exists only after
  // Add), so while editing the form is loaded.
  const { form, withForm } = useAgentForm();
  useRefocusOnSwap(editor, current ? `${editing ? "form" : "card"}-${current.id}` : null);

  async function runActivate(id: number, fresh?: Agent) {
    try {
      const answer = await activate.mutateAsync({ id, fresh });
      upsert(answer.agent);
      toast({ title: AGENT_TEXT.activated });
    } catch (err) {
      toast({ variant: "destructive", title: AGENT_TEXT.activateFailed, description: planErrorDescription(err) });
    }
  }

  async function runDeactivate(id: number) {
    try {
      upsert(await deactivate.mutateAsync(id));
      toast({ title: AGENT_TEXT.deactivated });
    } catch (err) {
      toast({ variant: "destructive", title: AGENT_TEXT.deactivateFailed, description: serverMessage(err) });
    }
  }

  async function runDelete(id: number) {
    try {
      await remove.mutateAsync(id);
      removeCachedAgent(queryClient, userId, id);
      dispatch({ type: "deleted" });
      toast({ title: AGENT_TEXT.deleted });
    } catch (err) {
      toast({ variant: "destructive", title: AGENT_TEXT.deleteFailed, description: serverMessage(err) });
    }
  }

  async function save(agent: Agent, values: AgentFormValues, { activate: andActivate }: { activate: boolean }) {
    const fields = {
      name: values.name,
      business_description: values.business_description,
      services: values.services,
      agent_instructions: values.agent_instructions,
      pricing_information: values.pricing_information ?? "",
      documents: values.documents ?? "",
      store: values.store ?? null,
      type: values.type ?? null,
    };
    let saved: Agent;
    if (agent.id === NEW_AGENT_ID) {
      try {
        // The server gives every new agent the default voice (docs/product/errors-and-texts.md#validation-messages).
        saved = await create.mutateAsync(fields);
      } catch (err) {
        const message = serverMessage(err);
        toast(
          saveFailure(err, message ? { title: AGENT_TEXT.createFailedTitle, description: planErrorDescription(err) } : { title: AGENT_TEXT.createFailed }),
        );
        return;
      }
      upsert(saved);
      toast({ title: AGENT_TEXT.createdTitle, description: AGENT_TEXT.created });
    } else {
      try {
        saved = await update.mutateAsync({ id: agent.id, body: { ...fields, voice_id: values.voice_id } });
      } catch (err) {
        toast(saveFailure(err, { title: AGENT_TEXT.updateFailed, description: serverMessage(err) }));
        return;
      }
      upsert(saved);
      toast({ title: AGENT_TEXT.saved });
    }
    dispatch({ type: "saved", id: saved.id });
    // The save's answer is the agent as stored: activation need not fetch it again.
    if (andActivate) await runActivate(saved.id, saved);
  }

  async function createFirstAgent() {
    try {
      const agent = await createDefault.mutateAsync();
      upsert(agent);
      dispatch({ type: "saved", id: agent.id });
      toast({ title: AGENT_TEXT.defaultCreated });
    } catch (err) {
      const message = serverMessage(err);
      toast({
        variant: "destructive",
        ...(message ? { title: AGENT_TEXT.createFailedTitle, description: planErrorDescription(err) } : { title: AGENT_TEXT.createFailed }),
      });
    }
  }

  const busyFor = (id: number) =>
    activate.isPending && activate.variables?.id === id
      ? "activating"
      : deactivate.isPending && deactivate.variables === id
        ? "deactivating"
        : null;

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title={AGENT_TEXT.pageTitle}
        description={AGENT_TEXT.pageDescription}
        actions={
          <Button onClick={() => withForm(() => dispatch({ type: "add", name: nextNewAgentName(agents.map((a) => a.name)) }))} disabled={!list}>
            <Plus aria-hidden />
            {AGENT_TEXT.addNew}
          </Button>
        }
      />
      {/* One column that never grows past the page: a long agent name is truncated instead of
          widening every card (an auto column takes the widest row's unbroken text as its minimum). */}
      <div className="grid grid-cols-1 gap-6">
        <PlanRequiredNotice email={email} />
        <UsageFigures className="lg:grid-cols-4" />

        {list === undefined && !agentsQuery.isError ? (
          <AgentsSkeleton />
        ) : agentsQuery.isError ? (
          <Card>
            <CardContent className="flex flex-col items-start gap-3 p-6 sm:flex-row sm:items-center sm:justify-between">
              <p role="alert" className="text-sm font-medium text-destructive">
                {PHONE_TEXT.agentsLoadFailed}
              </p>
              <Button variant="outline" onClick={() => void agentsQuery.refetch()}>
                {AGENT_TEXT.retry}
              </Button>
            </CardContent>
          </Card>
        ) : current === null ? (
          <AgentsEmptyState onCreate={() => void createFirstAgent()} creating={createDefault.isPending} />
        ) : (
          <>
            <AgentChips agents={agents} draft={state.draft} selectedId={current.id} onSelect={(id) => dispatch({ type: "select", id })} />
            <div ref={editor} className="contents">
              {editing && form ? (
                <form.AgentForm
                  key={current.id}
                  agent={current}
                  agents={agents}
                  onSave={(values, options) => save(current, values, options)}
                  onCancel={() => dispatch({ type: "cancel" })}
                />
              ) : (
                <AgentCard
                  agent={current}
                  voiceName={voices.data?.voices.find((v) => v.id === current.voice_id)?.name}
                  busy={busyFor(current.id)}
                  onEdit={() => withForm(() => dispatch({ type: "edit" }))}
                  onDelete={() => runDelete(current.id)}
                  onActivate={() => void runActivate(current.id)}
                  onDeactivate={() => void runDeactivate(current.id)}
                />
              )}
            </div>
            {agents.length > 0 ? <AgentNumbersList agents={agents} /> : null}
          </>
        )}
      </div>
    </div>
  );
}

function AgentsSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true">
      <LoadingStatus label={AGENT_TEXT.loading} />
      <div className="flex gap-2" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-9 w-28 rounded-full" />
        ))}
      </div>
      <div className="grid gap-4 rounded-xl border border-border bg-card p-6" aria-hidden>
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    </div>
  );
}
