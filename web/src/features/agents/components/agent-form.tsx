// The agent form (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages): two steps, validated on every change with the shared schema.
// Step 1 → Next when name, business description and services are filled; step 2's actions when the
// instructions are filled. Name required / duplicate are checked before anything is posted (docs/product/errors-and-texts.md#validation-messages).
import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, ArrowRight, Info, Rocket, Save } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { DEFAULT_VOICE_ID, NEW_AGENT_ID, STORE_NUMBER_NAMES, STORES } from "@shared/constants";
import { AGENT_TEXT } from "@shared/messages";
import { agentFormSchema, type Agent } from "@shared/schemas/agents";
import type { VoiceView } from "@shared/schemas/call-logs";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { Label } from "@web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";
import { SELECT_TRIGGER_CLASS } from "@web/components/ui/select-trigger-class";
import { SubmitButton } from "@web/components/ui/submit-button";
import { TextareaField } from "@web/components/ui/textarea";
import { toast } from "@web/lib/toast-store";
import { cn } from "@web/lib/utils";
import { nameProblem } from "../agent-editor";
import { useVoices } from "../api/get-voices";

export type AgentFormInput = z.input<typeof agentFormSchema>;
export type AgentFormValues = z.output<typeof agentFormSchema>;

const STEP_ONE_FIELDS = ["name", "business_description", "services", "pricing_information", "documents", "voice_id", "store", "type"] as const;

/** The types the form offers: what the Call Logs filter and the analysis read (docs/product/screens-and-routes.md#roles-and-flags: 'outbound'). */
const AGENT_TYPES = [
  { value: "inbound", label: AGENT_TEXT.typeInbound },
  { value: "outbound", label: AGENT_TEXT.typeOutbound },
];

/** Each store by its name and code, "Naples (NAPLES)". */
const STORE_OPTIONS = STORES.map((s) => ({ value: s, label: `${STORE_NUMBER_NAMES[s].replace(/\.$/, "")} (${s})` }));

type AgentFormProps = {
  agent: Agent;
  /** The account's saved agents, for the duplicate-name check. */
  agents: readonly Pick<Agent, "id" | "name">[];
  onSave: (values: AgentFormValues, options: { activate: boolean }) => Promise<void>;
  onCancel: () => void;
};

function initialValues(agent: Agent): AgentFormInput {
  return {
    name: agent.name,
    business_description: agent.business_description,
    services: agent.services,
    pricing_information: agent.pricing_information,
    documents: agent.documents,
    voice_id: agent.voice_id || DEFAULT_VOICE_ID,
    agent_instructions: agent.agent_instructions,
    store: agent.store,
    type: agent.type,
  };
}

/** "Filled" as the spec gates the wizard: something was typed. Length rules are the messages' job. */
const filled = (v: string | undefined) => Boolean(v && v.length > 0);

export function AgentForm({ agent, agents, onSave, onCancel }: AgentFormProps) {
  const isNew = agent.id === NEW_AGENT_ID;
  const storeTypeHintId = useId();
  const [step, setStep] = useState<1 | 2>(1);
  const [saving, setSaving] = useState<null | "save" | "activate">(null);
  const {
    register,
    control,
    handleSubmit,
    trigger,
    getValues,
    setFocus,
    formState: { errors },
  } = useForm<AgentFormInput, unknown, AgentFormValues>({
    resolver: zodResolver(agentFormSchema),
    mode: "onChange",
    defaultValues: initialValues(agent),
  });
  const [name, businessDescription, services, instructions] = useWatch({
    control,
    name: ["name", "business_description", "services", "agent_instructions"],
  });
  const canGoNext = filled(name) && filled(businessDescription) && filled(services);
  const canSave = filled(instructions) && saving === null;

  /** docs/product/errors-and-texts.md#validation-messages: a blank or taken name is answered with its toast, on Next and again before saving. */
  function nameRefused(): boolean {
    const problem = nameProblem(getValues("name"), agents, agent.id);
    if (!problem) return false;
    toast({ variant: "destructive", ...problem });
    setStep(1);
    setTimeout(() => setFocus("name"), 0);
    return true;
  }

  async function next() {
    if (!canGoNext || nameRefused()) return;
    // Step 1 must hold before step 2; its messages are already on screen.
    if (await trigger([...STEP_ONE_FIELDS])) setStep(2);
  }

  async function save(activate: boolean) {
    if (!canSave || nameRefused()) return;
    await handleSubmit(
      async (values) => {
        setSaving(activate ? "activate" : "save");
        try {
          await onSave(values, { activate });
        } finally {
          setSaving(null);
        }
      },
      (invalid) => {
        // A step-1 field still breaks a rule: show it where it can be fixed.
        const first = STEP_ONE_FIELDS.find((f) => invalid[f]);
        if (first) {
          setStep(1);
          setTimeout(() => setFocus(first), 0);
        }
      },
    )();
  }

  function onSubmit(e: FormEvent) {
    // Enter moves forward: Next on step 1, Save on step 2.
    e.preventDefault();
    if (step === 1) void next();
    else void save(false);
  }

  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-col gap-1">
          <CardTitle className="break-words">{agent.name || AGENT_TEXT.pageTitle}</CardTitle>
          <CardDescription className="flex items-center gap-1.5">
            <Info className="size-4 shrink-0 text-primary" aria-hidden />
            {AGENT_TEXT.mandatoryNotice}
          </CardDescription>
        </div>
        <StepIndicator step={step} />
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} aria-label={agent.name || AGENT_TEXT.pageTitle} className="grid gap-5">
          {step === 1 ? (
            <>
              <div className="grid gap-5 md:grid-cols-2">
                <FormField
                  label={AGENT_TEXT.nameLabel}
                  placeholder={AGENT_TEXT.namePlaceholder}
                  autoComplete="off"
                  error={errors.name?.message}
                  {...register("name")}
                />
                <VoiceSelect control={control} isNew={isNew} />
              </div>
              <div className="grid gap-2">
                <div className="grid gap-5 md:grid-cols-2">
                  <ChoiceSelect
                    control={control}
                    name="store"
                    label={AGENT_TEXT.storeLabel}
                    emptyLabel={AGENT_TEXT.noStore}
                    options={STORE_OPTIONS}
                    hintId={storeTypeHintId}
                  />
                  <ChoiceSelect
                    control={control}
                    name="type"
                    label={AGENT_TEXT.typeLabel}
                    emptyLabel={AGENT_TEXT.noType}
                    // The agent's own type stays choosable when it is none of the offered ones.
                    options={agent.type && !AGENT_TYPES.some((t) => t.value === agent.type) ? [...AGENT_TYPES, { value: agent.type, label: agent.type }] : AGENT_TYPES}
                    hintId={storeTypeHintId}
                  />
                </div>
                <p id={storeTypeHintId} className="text-xs text-muted-foreground">
                  {AGENT_TEXT.storeTypeHint}
                </p>
              </div>
              <TextareaField
                label={AGENT_TEXT.businessDescriptionLabel}
                placeholder={AGENT_TEXT.businessDescriptionPlaceholder}
                rows={3}
                error={errors.business_description?.message}
                {...register("business_description")}
              />
              <TextareaField
                label={AGENT_TEXT.servicesLabel}
                placeholder={AGENT_TEXT.servicesPlaceholder}
                rows={3}
                error={errors.services?.message}
                {...register("services")}
              />
              <div className="grid gap-5 md:grid-cols-2">
                <TextareaField
                  label={AGENT_TEXT.pricingLabel}
                  placeholder={AGENT_TEXT.pricingPlaceholder}
                  rows={3}
                  error={errors.pricing_information?.message}
                  {...register("pricing_information")}
                />
                <TextareaField
                  label={AGENT_TEXT.documentsLabel}
                  placeholder={AGENT_TEXT.documentsPlaceholder}
                  rows={3}
                  error={errors.documents?.message}
                  {...register("documents")}
                />
              </div>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Button variant="outline" onClick={onCancel}>
                  {AGENT_TEXT.cancel}
                </Button>
                <Button type="submit" disabled={!canGoNext}>
                  {AGENT_TEXT.next}
                  <ArrowRight aria-hidden />
                </Button>
              </div>
            </>
          ) : (
            <>
              <TextareaField
                label={AGENT_TEXT.instructionsLabel}
                placeholder={AGENT_TEXT.instructionsPlaceholder}
                rows={9}
                className="min-h-48"
                // eslint-disable-next-line jsx-a11y/no-autofocus -- the Next step replaces the focused button with this field, so focus moves to it
                autoFocus
                error={errors.agent_instructions?.message}
                {...register("agent_instructions")}
              />
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center">
                <Button variant="ghost" onClick={() => setStep(1)} disabled={saving !== null} className="sm:mr-auto">
                  <ArrowLeft aria-hidden />
                  {AGENT_TEXT.back}
                </Button>
                <Button variant="outline" onClick={onCancel} disabled={saving !== null}>
                  {AGENT_TEXT.cancel}
                </Button>
                <SubmitButton variant="secondary" disabled={!canSave} pending={saving === "save"} pendingLabel={AGENT_TEXT.saving} icon={<Save aria-hidden />}>
                  {AGENT_TEXT.save}
                </SubmitButton>
                <SubmitButton
                  type="button"
                  onClick={() => void save(true)}
                  disabled={!canSave}
                  pending={saving === "activate"}
                  pendingLabel={AGENT_TEXT.activating}
                  icon={<Rocket aria-hidden />}
                >
                  {AGENT_TEXT.saveAndActivate}
                </SubmitButton>
              </div>
            </>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

function StepIndicator({ step }: { step: 1 | 2 }) {
  const steps = [AGENT_TEXT.basicInfo, AGENT_TEXT.instructions];
  return (
    <ol className="flex flex-wrap items-center gap-2 text-sm">
      {steps.map((label, i) => {
        const n = (i + 1) as 1 | 2;
        const current = n === step;
        return (
          <li key={label} className="flex items-center gap-2">
            {i > 0 ? <span className="h-px w-6 bg-border" aria-hidden /> : null}
            <span
              aria-current={current ? "step" : undefined}
              className={cn(
                "rounded-full px-3 py-1 font-medium",
                current
                  ? "bg-primary text-primary-foreground"
                  : n < step
                    ? "bg-secondary text-secondary-foreground"
                    : "bg-muted text-muted-foreground",
              )}
            >
              {`${n}. ${label}`}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A native select of the form whose empty choice (`emptyLabel`) is null; described by the hint under the row. */
function ChoiceSelect({
  control,
  name,
  label,
  emptyLabel,
  options,
  hintId,
}: {
  control: ReturnType<typeof useForm<AgentFormInput, unknown, AgentFormValues>>["control"];
  name: "store" | "type";
  label: string;
  emptyLabel: string;
  options: readonly { value: string; label: string }[];
  hintId: string;
}) {
  const id = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="grid gap-2">
          <Label htmlFor={id}>{label}</Label>
          <select
            id={id}
            ref={field.ref}
            name={field.name}
            value={field.value ?? ""}
            onChange={(e) => field.onChange(e.target.value || null)}
            onBlur={field.onBlur}
            aria-describedby={hintId}
            className={SELECT_TRIGGER_CLASS}
          >
            <option value="">{emptyLabel}</option>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      )}
    />
  );
}

/** The voice list from the voice platform; a new agent keeps the default until it is saved. */
function VoiceSelect({
  control,
  isNew,
}: {
  control: ReturnType<typeof useForm<AgentFormInput, unknown, AgentFormValues>>["control"];
  isNew: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const voices = useVoices();
  return (
    <Controller
      control={control}
      name="voice_id"
      render={({ field }) => {
        const value = field.value || DEFAULT_VOICE_ID;
        const options: VoiceView[] = voices.data?.voices ?? [];
        // The agent's own voice stays choosable even if the platform no longer lists it.
        const all = options.some((v) => v.id === value) ? options : [{ id: value, name: value, provider: "" }, ...options];
        const hint = isNew ? AGENT_TEXT.newAgentVoiceHint : voices.isError ? AGENT_TEXT.voicesLoadFailed : undefined;
        return (
          <div className="grid gap-2">
            <Label htmlFor={id}>{AGENT_TEXT.voiceLabel}</Label>
            <Select value={value} onValueChange={field.onChange} disabled={isNew || voices.isPending} name={field.name}>
              <SelectTrigger id={id} ref={field.ref} onBlur={field.onBlur} aria-describedby={hint ? hintId : undefined}>
                <SelectValue placeholder={AGENT_TEXT.voicePlaceholder} />
              </SelectTrigger>
              <SelectContent>
                {all.map((v) => (
                  <SelectItem key={v.id} value={v.id}>
                    {voiceLabel(v)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {hint ? (
              <p id={hintId} className="text-xs text-muted-foreground">
                {hint}
              </p>
            ) : null}
          </div>
        );
      }}
    />
  );
}

export function voiceLabel(v: Pick<VoiceView, "name" | "provider" | "accent" | "gender">): string {
  const details = [v.accent, v.gender].filter(Boolean).join(", ");
  return details ? `${v.name} (${details})` : v.name;
}
