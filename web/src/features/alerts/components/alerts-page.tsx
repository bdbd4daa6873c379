// /alerts (decision 071, docs/product/alerts.md): the account's rules with each metric's exact
// definition and state, the create/edit form, and the history with acknowledgement and a link to
// the calls.
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { ALERT_COMPARISON_SIGNS, ALERT_METRICS, formatAlertValue, windowLabel } from "@shared/alerts";
import { ALERT_TEXT } from "@shared/messages";
import type { AlertRuleView, AlertRulesResponse, AlertView } from "@shared/schemas/alerts";
import { PageHeader } from "@web/components/layout/page-header";
import { Badge } from "@web/components/ui/badge";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { errorMessage } from "@web/lib/api";
import { toast } from "@web/lib/toast-store";
import { useAcknowledgeAlert, useAlertHistory, useAlertRules, useDeleteAlertRule } from "../api/alerts";
import { alertCallsLink } from "../calls-link";
import { RuleForm } from "./rule-form";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

function RuleCard({ rule, onEdit }: { rule: AlertRuleView; onEdit: () => void }) {
  const remove = useDeleteAlertRule();
  const metric = ALERT_METRICS[rule.metric];
  return (
    <li className="rounded-md border p-4" data-testid="alert-rule">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">
            {rule.name}{" "}
            <Badge variant={rule.status === "triggered" ? "destructive" : "success"}>{rule.status === "triggered" ? ALERT_TEXT.statusTriggered : ALERT_TEXT.statusOk}</Badge>{" "}
            <Badge variant="outline">{rule.severity}</Badge>
          </p>
          <p className="text-sm">
            {metric.label} ({rule.scopeLabel}) {ALERT_COMPARISON_SIGNS[rule.comparison]} {formatAlertValue(rule.metric, rule.threshold)} over {windowLabel(rule.metric, rule.windowMinutes)}
            {rule.cooldownMinutes ? `, cooldown ${rule.cooldownMinutes} min` : ""}
          </p>
          <p className="mt-1 text-xs text-muted-foreground">{metric.definition}</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onEdit}>
            {ALERT_TEXT.edit}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={remove.isPending}
            onClick={() => remove.mutate(rule.id, { onError: (err) => toast({ variant: "destructive", title: ALERT_TEXT.delete, description: errorMessage(err, "Could not delete the rule.") }) })}
          >
            {ALERT_TEXT.delete}
          </Button>
        </div>
      </div>
    </li>
  );
}

const linkClass = "text-primary underline-offset-4 hover:underline";

/** The calls behind the alert on /call-logs (see alertCallsLink), the dashboard for a store metric, or a dash. */
function CallsLink({ alert }: { alert: AlertView }) {
  const link = alertCallsLink(alert);
  if (!link) return "—";
  if (link.to === "/dashboard") {
    return (
      <Link to="/dashboard" className={linkClass}>
        {ALERT_TEXT.dashboard}
      </Link>
    );
  }
  return (
    <Link to="/call-logs" search={link.search} className={linkClass} data-testid="alert-calls-link">
      {ALERT_TEXT.calls}
    </Link>
  );
}

function HistoryTable({ alerts }: { alerts: AlertView[] }) {
  const ack = useAcknowledgeAlert();
  if (alerts.length === 0) return <p className="text-sm text-muted-foreground">{ALERT_TEXT.noHistory}</p>;
  return (
    <Table data-testid="alert-history">
      <TableHeader>
        <TableRow>
          <TableHead>Fired</TableHead>
          <TableHead>Rule</TableHead>
          <TableHead>Value</TableHead>
          <TableHead>Threshold</TableHead>
          <TableHead>Window</TableHead>
          <TableHead>{ALERT_TEXT.resolvedAt}</TableHead>
          <TableHead>Acknowledged</TableHead>
          <TableHead>{ALERT_TEXT.calls}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {alerts.map((a) => (
          <TableRow key={a.id}>
            <TableCell>{when(a.firedAt)}</TableCell>
            <TableCell>
              {a.ruleName} <span className="text-xs text-muted-foreground">({a.scopeLabel})</span>
            </TableCell>
            <TableCell>{formatAlertValue(a.metric, a.value)}</TableCell>
            <TableCell>
              {ALERT_COMPARISON_SIGNS[a.comparison]} {formatAlertValue(a.metric, a.threshold)}
            </TableCell>
            <TableCell>
              {windowLabel(a.metric, a.windowMinutes)}
              {a.windowMinutes > 0 ? <span className="block text-xs text-muted-foreground">{`${when(a.windowStart)} – ${when(a.windowEnd)}`}</span> : null}
            </TableCell>
            <TableCell>{a.resolvedAt ? when(a.resolvedAt) : <Badge variant="destructive">{ALERT_TEXT.open}</Badge>}</TableCell>
            <TableCell>
              {a.acknowledgedBy ? (
                ALERT_TEXT.acknowledgedBy(a.acknowledgedBy)
              ) : (
                <Button size="sm" variant="outline" disabled={ack.isPending} onClick={() => ack.mutate(a.id)}>
                  {ALERT_TEXT.acknowledge}
                </Button>
              )}
            </TableCell>
            <TableCell>
              <CallsLink alert={a} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Rules({ data }: { data: AlertRulesResponse }) {
  const [editing, setEditing] = useState<AlertRuleView | "new" | null>(null);
  return (
    <div className="grid gap-4">
      <div className="flex items-center justify-between">
        <p className="text-sm text-muted-foreground">
          {ALERT_TEXT.limit(data.rules.length, data.limit)} · <span data-testid="alert-plan">{ALERT_TEXT.planAllows(data.plan.rules, data.plan.extraEmails)}</span>
        </p>
        {editing === null ? (
          <Button onClick={() => setEditing("new")} disabled={data.rules.length >= data.limit}>
            {ALERT_TEXT.newRule}
          </Button>
        ) : null}
      </div>
      {editing !== null ? <RuleForm key={editing === "new" ? "new" : editing.id} rule={editing === "new" ? null : editing} options={data} onDone={() => setEditing(null)} /> : null}
      {data.rules.length === 0 ? (
        <p className="text-sm text-muted-foreground">{ALERT_TEXT.noRules}</p>
      ) : (
        <ul className="grid gap-2">
          {data.rules.map((r) => (
            <RuleCard key={r.id} rule={r} onEdit={() => setEditing(r)} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function AlertsPage() {
  const rules = useAlertRules();
  const history = useAlertHistory();
  return (
    <div>
      <PageHeader title={ALERT_TEXT.title} description={ALERT_TEXT.intro} />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>{ALERT_TEXT.rules}</CardTitle>
          </CardHeader>
          <CardContent>
            {rules.isPending ? <Spinner className="size-5" /> : rules.isError ? <p role="alert">{errorMessage(rules.error, "Could not load the rules.")}</p> : <Rules data={rules.data} />}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{ALERT_TEXT.history}</CardTitle>
          </CardHeader>
          <CardContent>
            {history.isPending ? <Spinner className="size-5" /> : history.isError ? <p role="alert">{errorMessage(history.error, "Could not load the history.")}</p> : <HistoryTable alerts={history.data.alerts} />}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
