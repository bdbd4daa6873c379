// /analytics (docs/product/appointment-analysis.md#appointment-analysis "Analytics (Appointment Analysis)"): pick an outbound agent and a New York date
// range, run the won-appointment analysis for the agent's store, read the result in a sortable table.
// Only users with shopwindows_info may use it (docs/product/screens-and-routes.md#roles-and-flags).
import { useState, type FormEvent } from "react";
import { ANALYSIS_LIMIT, type Store } from "@shared/constants";
import { ANALYTICS_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { nyYesterday } from "@shared/ny-time";
import { useAgents } from "@web/api/agents";
import { AccessDenied } from "@web/components/layout/access-denied";
import { PageHeader } from "@web/components/layout/page-header";
import { Card, CardContent } from "@web/components/ui/card";
import { Field, FormField } from "@web/components/ui/form-field";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { errorMessage } from "@web/lib/api";
import { useAnalyzeWon } from "../api/analyze-won";
import { outboundAgents, validateAnalysisForm, type AnalysisFormErrors } from "../analysis-form";
import { AnalysisTable } from "./analysis-table";

type User = Pick<CurrentUserView, "id" | "shopwindows_info">;

export function AnalyticsPage({ user }: { user: User }) {
  if (!user.shopwindows_info) return <AccessDenied description={ANALYTICS_TEXT.denied} />;
  return <Analysis userId={user.id} />;
}

function Analysis({ userId }: { userId: string }) {
  const agents = useAgents(userId);
  const choices = outboundAgents(agents.data?.agents ?? []);
  const run = useAnalyzeWon();
  const [agentId, setAgentId] = useState("");
  const [startDate, setStartDate] = useState(() => nyYesterday());
  const [endDate, setEndDate] = useState(() => nyYesterday());
  const [errors, setErrors] = useState<AnalysisFormErrors>({});

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateAnalysisForm({ agentId, startDate, endDate });
    setErrors(found);
    const agent = choices.find((a) => String(a.id) === agentId);
    if (Object.keys(found).length > 0 || !agent) return;
    // The server checks the store against the chain's stores and names the field when it is not one.
    run.mutate({ storeId: agent.store as Store, startDate, endDate, limit: ANALYSIS_LIMIT });
  }

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader title={ANALYTICS_TEXT.title} description={ANALYTICS_TEXT.intro} />
      <Card className="mb-6">
        <CardContent className="pt-6">
          <form noValidate onSubmit={submit} className="grid items-start gap-4 md:grid-cols-[2fr_1fr_1fr_auto]">
            <Field label={ANALYTICS_TEXT.agent} error={errors.agentId}>
              {(control) => (
                <select
                  {...control}
                  value={agentId}
                  onChange={(e) => setAgentId(e.target.value)}
                  disabled={agents.isPending}
                  className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none aria-invalid:border-destructive md:text-sm"
                >
                  <option value="">{choices.length || agents.isPending ? ANALYTICS_TEXT.agentPlaceholder : ANALYTICS_TEXT.noAgents}</option>
                  {choices.map((a) => (
                    <option key={a.id} value={String(a.id)}>
                      {a.name} ({a.store})
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <FormField label={ANALYTICS_TEXT.startDate} type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} error={errors.startDate} />
            <FormField label={ANALYTICS_TEXT.endDate} type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} error={errors.endDate} />
            <SubmitButton className="md:mt-7" pending={run.isPending} pendingLabel={ANALYTICS_TEXT.loading}>
              {ANALYTICS_TEXT.run}
            </SubmitButton>
          </form>
          {agents.isError ? <p className="mt-3 text-sm text-destructive">{errorMessage(agents.error, ANALYTICS_TEXT.failed)}</p> : null}
        </CardContent>
      </Card>
      <Card>
        <CardContent className="p-0">
          {run.isPending ? (
            <div className="flex justify-center p-10">
              <Spinner className="size-8" label={ANALYTICS_TEXT.loading} />
            </div>
          ) : run.isError ? (
            <p role="alert" className="p-6 text-sm text-destructive">
              {errorMessage(run.error, ANALYTICS_TEXT.unknownError)}
            </p>
          ) : !run.data ? (
            <p className="p-6 text-sm text-muted-foreground">{ANALYTICS_TEXT.intro}</p>
          ) : run.data.items.length === 0 ? (
            <p className="p-6 text-sm text-muted-foreground">{ANALYTICS_TEXT.noResults}</p>
          ) : (
            <AnalysisTable items={run.data.items} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
