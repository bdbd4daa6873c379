// The create/edit form of an alert rule (decision 071): the metric's exact definition under its
// choice, only the scopes, windows and comparisons the metric takes, Test before saving, and the
// server's 400/403 shown on the field it names. Each extra address shows its state (decision 073):
// waiting for confirmation, confirmed or unsubscribed, with "Resend confirmation" while it waits (an unsubscribed address is not asked again).
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import {
  ALERT_COMPARISON_SIGNS,
  ALERT_COOLDOWN,
  ALERT_METRICS,
  ALERT_TEST_DAYS,
  formatAlertValue,
  windowLabel,
  WINDOW_DEFINITION,
  type AlertMetricId,
} from "@shared/alerts";
import { ALERT_TEXT } from "@shared/messages";
import type { AlertRuleInput, AlertRuleView, AlertRulesResponse, AlertTestResponse } from "@shared/schemas/alerts";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Field, FormField } from "@web/components/ui/form-field";
import { SELECT_TRIGGER_CLASS } from "@web/components/ui/select-trigger-class";
import { SubmitButton } from "@web/components/ui/submit-button";
import { ApiError, errorMessage } from "@web/lib/api";
import { toast } from "@web/lib/toast-store";
import { useResendConfirmation, useSaveAlertRule, useTestAlertRule } from "../api/alerts";

type FormValues = {
  name: string;
  metric: AlertMetricId;
  scopeKind: AlertRuleInput["scopeKind"];
  scopeId: string;
  comparison: AlertRuleInput["comparison"];
  threshold: string;
  windowMinutes: string;
  cooldownMinutes: string;
  severity: AlertRuleInput["severity"];
  emailAccount: boolean;
  extraEmails: string;
  webhook: boolean;
  bell: boolean;
};

const FIELDS = ["name", "metric", "scopeKind", "scopeId", "comparison", "threshold", "windowMinutes", "cooldownMinutes", "severity", "extraEmails"] as const;

function initial(rule: AlertRuleView | null, metrics: AlertMetricId[]): FormValues {
  if (rule) {
    return {
      ...rule,
      threshold: String(rule.threshold),
      windowMinutes: String(rule.windowMinutes),
      cooldownMinutes: String(rule.cooldownMinutes),
      extraEmails: rule.extraEmails.join(", "),
    };
  }
  const metric = metrics.includes("error_calls") ? "error_calls" : metrics[0];
  return {
    name: "",
    metric,
    scopeKind: ALERT_METRICS[metric].scopes[0],
    scopeId: "",
    comparison: "gte",
    threshold: "3",
    windowMinutes: String(ALERT_METRICS[metric].windows[0]),
    cooldownMinutes: "30",
    severity: "warning",
    emailAccount: true,
    extraEmails: "",
    webhook: false,
    bell: true,
  };
}

/** The addresses typed in the extra emails field, as the server stores them. */
const addressesOf = (text: string) => [...new Set(text.split(/[,\s]+/).map((s) => s.trim().toLowerCase()).filter(Boolean))];

/** Each typed address with its state for this account, and Resend where it is not confirmed. */
function Recipients({ typed, options }: { typed: string; options: AlertRulesResponse }) {
  const resend = useResendConfirmation();
  const [sent, setSent] = useState<string[]>([]);
  const addresses = addressesOf(typed);
  if (addresses.length === 0) return null;
  const onResend = async (email: string) => {
    try {
      await resend.mutateAsync(email);
      setSent((s) => [...s, email]);
    } catch (err) {
      toast({ variant: "destructive", title: ALERT_TEXT.resendConfirmation, description: errorMessage(err, "Could not send the confirmation.") });
    }
  };
  return (
    <ul className="grid gap-1 text-sm sm:col-span-2" data-testid="alert-recipients">
      {addresses.map((email) => {
        const state = options.recipients.find((r) => r.email === email)?.status;
        return (
          <li key={email} className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{email}</span>
            <span className="text-muted-foreground">{state ? ALERT_TEXT.recipientStates[state] : ALERT_TEXT.recipientNew}</span>
            {state === "pending" ? (
              sent.includes(email) ? (
                <span role="status" className="text-muted-foreground">
                  {ALERT_TEXT.confirmationSent}
                </span>
              ) : (
                <Button type="button" variant="outline" size="sm" disabled={resend.isPending} onClick={() => void onResend(email)}>
                  {ALERT_TEXT.resendConfirmation}
                </Button>
              )
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The body the API takes; numbers that do not parse go as they are, for the server to name. */
function bodyOf(v: FormValues): AlertRuleInput {
  const num = (s: string) => (s.trim() === "" || Number.isNaN(Number(s)) ? (s as unknown as number) : Number(s));
  return {
    name: v.name,
    metric: v.metric,
    scopeKind: v.scopeKind,
    scopeId: v.scopeKind === "all" ? "" : v.scopeId,
    comparison: v.comparison,
    threshold: num(v.threshold),
    windowMinutes: num(v.windowMinutes) as AlertRuleInput["windowMinutes"],
    cooldownMinutes: num(v.cooldownMinutes),
    severity: v.severity,
    emailAccount: v.emailAccount,
    extraEmails: v.extraEmails
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    webhook: v.webhook,
    bell: v.bell,
  };
}

export function RuleForm({ rule, options, onDone }: { rule: AlertRuleView | null; options: AlertRulesResponse; onDone: () => void }) {
  const save = useSaveAlertRule();
  const test = useTestAlertRule();
  const [tested, setTested] = useState<AlertTestResponse | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors },
  } = useForm<FormValues>({ defaultValues: initial(rule, options.metrics) });
  const metricId = useWatch({ control, name: "metric" });
  const typedEmails = useWatch({ control, name: "extraEmails" });
  const scopeKind = useWatch({ control, name: "scopeKind" });
  const metric = ALERT_METRICS[metricId];
  const scopes = options.scopes.filter((s) => s.kind === scopeKind && s.kind !== "all");

  /** The server's refusal on the field it names, else a toast. */
  const showError = (err: unknown) => {
    const field = err instanceof ApiError ? err.body?.field?.split(".")[0] : undefined;
    if (field && (FIELDS as readonly string[]).includes(field)) setError(field as (typeof FIELDS)[number], { message: err instanceof ApiError ? (err.body?.error ?? "") : "" });
    else toast({ variant: "destructive", title: ALERT_TEXT.save, description: errorMessage(err, "Could not save the rule.") });
  };

  const onMetric = (next: AlertMetricId) => {
    const m = ALERT_METRICS[next];
    if (!m.scopes.includes(getValues("scopeKind"))) setValue("scopeKind", m.scopes[0]);
    if (!m.windows.map(String).includes(getValues("windowMinutes"))) setValue("windowMinutes", String(m.windows[0]));
    if (!m.comparisons.includes(getValues("comparison"))) setValue("comparison", m.comparisons[0]);
    setTested(null);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: rule?.id ?? null, rule: bodyOf(values) });
      onDone();
    } catch (err) {
      showError(err);
    }
  });

  const runTest = async () => {
    try {
      setTested(await test.mutateAsync(bodyOf(getValues())));
    } catch (err) {
      showError(err);
    }
  };

  const select = (name: keyof FormValues, label: string, choices: { value: string; label: string }[], onChange?: (v: string) => void) => (
    <Field label={label} error={errors[name]?.message}>
      {(control) => (
        <select
          {...control}
          // The form's value from the first paint (the library sets it only once the options exist).
          defaultValue={String(getValues(name))}
          className={SELECT_TRIGGER_CLASS}
          {...register(name, { onChange: onChange ? (e: { target: { value: string } }) => onChange(e.target.value) : undefined })}
        >
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{rule ? ALERT_TEXT.editRule : ALERT_TEXT.newRule}</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4 sm:grid-cols-2">
          <FormField label="Name" error={errors.name?.message} {...register("name")} />
          <div className="grid gap-1">
            {select(
              "metric",
              "Metric",
              options.metrics.map((m) => ({ value: m, label: ALERT_METRICS[m].label })),
              (v) => onMetric(v as AlertMetricId),
            )}
            <p className="text-xs text-muted-foreground" data-testid="metric-definition">
              {metric.definition}
            </p>
          </div>
          {select(
            "scopeKind",
            "Scope",
            metric.scopes.map((s) => ({ value: s, label: { all: "All", agent: "One agent", number: "One phone number", store: "One store" }[s] })),
          )}
          {scopeKind !== "all" ? (
            select("scopeId", scopeKind === "agent" ? "Agent" : scopeKind === "number" ? "Phone number" : "Store", [
              { value: "", label: "Choose…" },
              ...scopes.map((s) => ({ value: s.id, label: s.label })),
            ])
          ) : (
            <div />
          )}
          {select(
            "comparison",
            "Comparison",
            metric.comparisons.map((c) => ({ value: c, label: ALERT_COMPARISON_SIGNS[c] })),
          )}
          <FormField
            label={`Threshold (${metric.unit})`}
            type="number"
            step="any"
            min={metric.threshold.min}
            max={metric.threshold.max}
            error={errors.threshold?.message}
            {...register("threshold")}
          />
          <div className="grid gap-1">
            {select(
              "windowMinutes",
              "Window",
              metric.windows.map((w) => ({ value: String(w), label: windowLabel(metricId, w) })),
            )}
            {metric.fromCalls && metric.windows[0] !== 0 ? <p className="text-xs text-muted-foreground">{WINDOW_DEFINITION}</p> : null}
          </div>
          <FormField label="Cooldown (minutes)" type="number" min={ALERT_COOLDOWN.min} error={errors.cooldownMinutes?.message} {...register("cooldownMinutes")} />
          {select("severity", "Severity", [
            { value: "warning", label: "Warning" },
            { value: "critical", label: "Critical" },
          ])}
          {options.plan.extraEmails > 0 || (rule?.extraEmails.length ?? 0) > 0 ? (
            <>
              <FormField
                label="Extra email addresses"
                hint={ALERT_TEXT.extraEmailsHint(options.plan.extraEmails)}
                error={errors.extraEmails?.message}
                {...register("extraEmails")}
              />
              <Recipients typed={typedEmails} options={options} />
            </>
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="alert-plan-mail">
              {ALERT_TEXT.planAllows(options.plan.rules, options.plan.extraEmails)}
            </p>
          )}
          <fieldset className="grid gap-2 text-sm sm:col-span-2">
            <legend className="mb-1 font-medium">Channels</legend>
            <label className="flex items-center gap-2">
              <input type="checkbox" {...register("emailAccount")} /> Email the account
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" {...register("webhook")} /> Webhook event (alert.triggered / alert.resolved)
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" {...register("bell")} /> In-app bell
            </label>
          </fieldset>
          {tested ? (
            <p role="status" className="rounded-md bg-muted p-3 text-sm sm:col-span-2" data-testid="alert-test-result">
              {tested.grain !== "now"
                ? `${ALERT_TEXT.testResult(tested.fired, ALERT_TEST_DAYS)} ${ALERT_TEXT.testGrain[tested.grain]}`
                : tested.current === null
                  ? ALERT_TEXT.testNoValueNotReplayed
                  : ALERT_TEXT.testNotReplayed(formatAlertValue(metricId, tested.current))}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <SubmitButton pending={save.isPending}>{ALERT_TEXT.save}</SubmitButton>
            <Button type="button" variant="outline" disabled={test.isPending} onClick={() => void runTest()}>
              {test.isPending ? ALERT_TEXT.testing : ALERT_TEXT.test}
            </Button>
            <Button type="button" variant="ghost" onClick={onDone}>
              {ALERT_TEXT.cancel}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
