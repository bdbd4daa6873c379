// Settings → "Webhooks" (docs/product/webhooks.md): the account's endpoints (URL, description,
// events), a form to add one (its signing secret shown once), and per endpoint: send a test event,
// rotate the secret (the new one shown once), enable or disable, delete, and its delivery log with
// Resend on every delivery. An account without the plan sees what Pro gives and an Upgrade link.
import { useId, useState, type FormEvent } from "react";
import { formatTimestamp } from "@shared/format";
import { WEBHOOKS_TEXT as T } from "@shared/messages";
import { webhookEndpointCreateBody, type WebhookDeliveryView, type WebhookEndpointView } from "@shared/schemas/webhooks";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@shared/webhooks";
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
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { errorMessage } from "@web/lib/api";
import { toast } from "@web/lib/toast-store";
import { ProOnly } from "./pro-only";
import { SecretOnce } from "./secret-once";
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useResendDelivery,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from "../api/webhooks";

/** The events a user picks; `test` is always received. */
const PICKABLE = WEBHOOK_EVENT_TYPES.filter((t) => t !== "test");

function AddEndpointForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>(["call.started", "call.ended"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const idPrefix = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = webhookEndpointCreateBody.safeParse({ url, description, events });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.path[0] === "events" ? T.pickEvent : i.message])));
      return;
    }
    setErrors({});
    try {
      const created = await create.mutateAsync(parsed.data);
      setUrl("");
      setDescription("");
      onCreated(created.secret);
    } catch (err) {
      // A refused URL names the field and the reason: shown under the field.
      const message = errorMessage(err, T.addFailed);
      if (message.startsWith("The URL")) setErrors({ url: message });
      else toast({ variant: "destructive", title: T.addFailed, description: message });
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-3">
      <FormField label={T.urlLabel} type="url" inputMode="url" placeholder="https://" value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
      <FormField label={T.descriptionLabel} value={description} maxLength={200} error={errors.description} onChange={(e) => setDescription(e.target.value)} />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{T.eventsLabel}</legend>
        <div className="grid gap-1.5">
          {PICKABLE.map((type) => (
            <div key={type} className="flex items-start gap-2 text-sm">
              <input
                id={`${idPrefix}-${type}`}
                type="checkbox"
                className="mt-0.5 size-4 accent-primary"
                checked={events.includes(type)}
                onChange={(e) => setEvents((now) => (e.target.checked ? [...now, type] : now.filter((t) => t !== type)))}
              />
              <label htmlFor={`${idPrefix}-${type}`}>
                <span className="font-mono">{type}</span> <span className="text-muted-foreground">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
              </label>
            </div>
          ))}
        </div>
        {errors.events ? <p className="text-sm font-medium text-destructive">{errors.events}</p> : null}
      </fieldset>
      <div>
        <SubmitButton pending={create.isPending} pendingLabel={T.adding}>
          {T.add}
        </SubmitButton>
      </div>
    </form>
  );
}

/** A button that asks first, then runs `action`. */
function ConfirmButton({ label, title, text, action, pending }: { label: string; title: string; text: string; action: () => Promise<void>; pending: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" size="sm" variant="outline" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            <AlertDialogDescription>{text}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>{T.cancel}</AlertDialogCancel>
            <AlertDialogAction
              disabled={pending}
              onClick={(e) => {
                e.preventDefault();
                void action().finally(() => setOpen(false));
              }}
            >
              {pending ? <Spinner className="size-4" /> : null}
              {label}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function DeliveryRow({ endpointId, delivery }: { endpointId: string; delivery: WebhookDeliveryView }) {
  const resend = useResendDelivery();
  const last = delivery.attemptLog[0];
  const c = T.columns;
  return (
    <TableRow data-testid="webhook-delivery">
      <TableCell className="font-mono text-xs">{delivery.eventType}</TableCell>
      <TableCell className="whitespace-nowrap">{formatTimestamp(last?.attemptedAt ?? delivery.createdAt)}</TableCell>
      <TableCell>{delivery.attempts}</TableCell>
      <TableCell>{T.statuses[delivery.status]}</TableCell>
      <TableCell>{last ? (last.responseStatus ?? last.error ?? T.noAnswer) : "—"}</TableCell>
      <TableCell className="whitespace-nowrap">{last ? `${last.durationMs} ms` : "—"}</TableCell>
      <TableCell className="max-w-48">
        {last?.responseBody ? (
          <details>
            <summary className="cursor-pointer text-xs text-muted-foreground">{c.body}</summary>
            <pre className="mt-1 max-h-40 overflow-auto text-xs break-all whitespace-pre-wrap">{last.responseBody}</pre>
          </details>
        ) : null}
      </TableCell>
      <TableCell className="text-right">
        <Button
          type="button"
          size="sm"
          variant="outline"
          // A pending delivery's next attempt is already queued; the server answers a resend of it 409.
          disabled={resend.isPending || delivery.status === "pending"}
          title={delivery.status === "pending" ? T.resendQueued : undefined}
          onClick={() =>
            void resend.mutateAsync({ endpointId, deliveryId: delivery.id }).then(
              () => toast({ title: T.resent, description: delivery.id }),
              (err: unknown) => toast({ variant: "destructive", title: T.actionFailed, description: errorMessage(err, T.actionFailed) }),
            )
          }
        >
          {T.resend}
        </Button>
      </TableCell>
    </TableRow>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const log = useWebhookDeliveries(endpointId);
  const c = T.columns;
  if (log.isPending) return <Spinner className="size-5" />;
  if (log.isError) return <p role="alert" className="text-sm text-destructive">{errorMessage(log.error, T.loadFailed)}</p>;
  if (log.data.deliveries.length === 0) return <p className="text-sm text-muted-foreground">{T.noDeliveries}</p>;
  return (
    <Table aria-label={T.showLog}>
      <TableHeader>
        <TableRow>
          <TableHead>{c.event}</TableHead>
          <TableHead>{c.time}</TableHead>
          <TableHead>{c.attempts}</TableHead>
          <TableHead>{c.status}</TableHead>
          <TableHead>{c.response}</TableHead>
          <TableHead>{c.duration}</TableHead>
          <TableHead>
            <span className="sr-only">{c.body}</span>
          </TableHead>
          <TableHead>
            <span className="sr-only">{T.resend}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {log.data.deliveries.map((d) => (
          <DeliveryRow key={d.id} endpointId={endpointId} delivery={d} />
        ))}
      </TableBody>
    </Table>
  );
}

function EndpointItem({ endpoint, onSecret }: { endpoint: WebhookEndpointView; onSecret: (secret: string) => void }) {
  const [showLog, setShowLog] = useState(false);
  const test = useSendTestEvent();
  const rotate = useRotateWebhookSecret();
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const fail = (err: unknown) => {
    toast({ variant: "destructive", title: T.actionFailed, description: errorMessage(err, T.actionFailed) });
  };
  return (
    <li className="grid gap-3 rounded-md border p-3" data-testid="webhook-endpoint">
      <div className="grid gap-1">
        <p className="font-mono text-sm break-all">{endpoint.url}</p>
        {endpoint.description ? <p className="text-sm">{endpoint.description}</p> : null}
        <p className="font-mono text-xs text-muted-foreground">{endpoint.events.join(", ")}</p>
        <p className="text-xs text-muted-foreground">
          {endpoint.enabled ? T.enabled : `${T.disabled}${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`} · {endpoint.secretPrefix}
          {endpoint.previousSecretExpiresAt ? ` · ${T.rotateUntil(formatTimestamp(endpoint.previousSecretExpiresAt))}` : ""}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          disabled={test.isPending}
          onClick={() =>
            void test.mutateAsync(endpoint.id).then(() => {
              toast({ title: T.testSent });
              setShowLog(true);
            }, fail)
          }
        >
          {T.sendTest}
        </Button>
        <Button type="button" size="sm" variant="outline" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
          {showLog ? T.hideLog : T.showLog}
        </Button>
        <ConfirmButton
          label={T.rotate}
          title={T.rotateTitle}
          text={T.rotateText}
          pending={rotate.isPending}
          action={() => rotate.mutateAsync(endpoint.id).then((r) => onSecret(r.secret), fail)}
        />
        <Button type="button" size="sm" variant="outline" disabled={update.isPending} onClick={() => void update.mutateAsync({ id: endpoint.id, body: { enabled: !endpoint.enabled } }).catch(fail)}>
          {endpoint.enabled ? T.disable : T.enable}
        </Button>
        <ConfirmButton label={T.delete} title={T.deleteTitle} text={T.deleteText} pending={remove.isPending} action={() => remove.mutateAsync(endpoint.id).then(() => undefined, fail)} />
      </div>
      {showLog ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </li>
  );
}

export function WebhooksSection({ email }: { email: string }) {
  const list = useWebhookEndpoints();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{T.section}</CardTitle>
        <CardDescription>{T.sectionText}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {list.isPending ? (
          <Spinner className="size-5" />
        ) : list.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(list.error, T.loadFailed)}
          </p>
        ) : !list.data.allowed ? (
          <ProOnly why={T.proOnly} upgrade={T.upgrade} email={email} />
        ) : (
          <>
            {secret ? (
              <SecretOnce secret={secret} text={T} testId="webhook-secret" onDone={() => setSecret(null)} />
            ) : list.data.endpoints.length < list.data.limit ? (
              <AddEndpointForm onCreated={setSecret} />
            ) : (
              <p className="text-sm text-muted-foreground">{T.limitNote(list.data.limit)}</p>
            )}
            {list.data.endpoints.length === 0 ? (
              <p className="text-sm text-muted-foreground">{T.noEndpoints}</p>
            ) : (
              <ul className="grid gap-3" aria-label={T.section}>
                {list.data.endpoints.map((e) => (
                  <EndpointItem key={e.id} endpoint={e} onSecret={setSecret} />
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
