// Settings → "API access" (docs/product/api-access.md): the account's API keys with their scopes,
// prefix, creation and last use, a form to create one (its secret shown once), Revoke with a
// confirmation, and the link to the API reference. An account without API access sees what Pro
// gives and an Upgrade link instead of the form.
import { useState, type FormEvent } from "react";
import { API_ACCESS_TEXT } from "@shared/messages";
import { formatTimestamp } from "@shared/format";
import { API_KEY_SCOPES, apiKeyCreateBody, type ApiKeyScope, type ApiKeyView } from "@shared/schemas/api-keys";
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
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/api-keys";

const T = API_ACCESS_TEXT;

function CreateKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["calls:read", "counts:read"]);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = apiKeyCreateBody.safeParse({ name, scopes });
    if (!parsed.success) {
      const byField = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.path[0] === "scopes" ? T.pickScope : `${T.nameLabel} ${i.message}`]));
      setErrors(byField);
      return;
    }
    setErrors({});
    try {
      const created = await create.mutateAsync(parsed.data);
      setName("");
      onCreated(created.secret);
    } catch (err) {
      toast({ variant: "destructive", title: T.createFailed, description: errorMessage(err, T.createFailed) });
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-3">
      <FormField label={T.nameLabel} value={name} maxLength={80} error={errors.name} onChange={(e) => setName(e.target.value)} />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{T.scopesLabel}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="inline-flex items-center gap-1.5 font-mono text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes((now) => (e.target.checked ? [...now, scope] : now.filter((s) => s !== scope)))}
              />
              {scope}
            </label>
          ))}
        </div>
        {errors.scopes ? <p className="text-sm font-medium text-destructive">{errors.scopes}</p> : null}
      </fieldset>
      <div>
        <SubmitButton pending={create.isPending} pendingLabel={T.creating}>
          {T.create}
        </SubmitButton>
      </div>
    </form>
  );
}

function RevokeButton({ apiKey }: { apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKey();
  const [open, setOpen] = useState(false);
  const confirm = async () => {
    try {
      await revoke.mutateAsync(apiKey.id);
      toast({ title: T.revoked, description: apiKey.name });
    } catch (err) {
      toast({ variant: "destructive", title: T.revokeFailed, description: errorMessage(err, T.revokeFailed) });
    } finally {
      setOpen(false);
    }
  };
  return (
    <>
      <Button type="button" size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`${T.revoke} ${apiKey.name}`}>
        {T.revoke}
      </Button>
      <AlertDialog open={open} onOpenChange={(next) => !revoke.isPending && setOpen(next)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{T.revokeTitle(apiKey.name)}</AlertDialogTitle>
            <AlertDialogDescription>{T.revokeText}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revoke.isPending}>{T.cancel}</AlertDialogCancel>
            <AlertDialogAction
              disabled={revoke.isPending}
              onClick={(e) => {
                e.preventDefault();
                void confirm();
              }}
            >
              {revoke.isPending ? <Spinner className="size-4" /> : null}
              {T.revoke}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

function KeyTable({ keys }: { keys: ApiKeyView[] }) {
  if (keys.length === 0) return <p className="text-sm text-muted-foreground">{T.noKeys}</p>;
  const c = T.columns;
  return (
    <Table aria-label={T.section}>
      <TableHeader>
        <TableRow>
          <TableHead>{c.name}</TableHead>
          <TableHead>{c.scopes}</TableHead>
          <TableHead>{c.prefix}</TableHead>
          <TableHead>{c.created}</TableHead>
          <TableHead>{c.lastUsed}</TableHead>
          <TableHead>
            <span className="sr-only">{T.revoke}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.map((k) => (
          <TableRow key={k.id}>
            <TableCell className="font-medium">{k.name}</TableCell>
            <TableCell className="font-mono text-xs">{k.scopes.join(", ")}</TableCell>
            <TableCell className="font-mono text-xs">{k.prefix}…</TableCell>
            <TableCell className="whitespace-nowrap">{formatTimestamp(k.createdAt)}</TableCell>
            <TableCell className="whitespace-nowrap">{k.lastUsedAt ? formatTimestamp(k.lastUsedAt) : T.neverUsed}</TableCell>
            <TableCell className="text-right">
              <RevokeButton apiKey={k} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function ApiAccessSection({ email }: { email: string }) {
  const keys = useApiKeys();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{T.section}</CardTitle>
        <CardDescription>
          {T.sectionText}{" "}
          <a href="/v1/docs" target="_blank" rel="noreferrer" className="font-medium text-primary underline-offset-4 hover:underline">
            {T.reference}
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {keys.isPending ? (
          <Spinner className="size-5" />
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(keys.error, T.loadFailed)}
          </p>
        ) : (
          <>
            {!keys.data.allowed ? (
              <ProOnly why={T.proOnly} upgrade={T.upgrade} email={email} />
            ) : secret ? (
              <SecretOnce secret={secret} text={T} testId="api-key-secret" onDone={() => setSecret(null)} />
            ) : keys.data.keys.length < keys.data.limit ? (
              <CreateKeyForm onCreated={setSecret} />
            ) : (
              <p className="text-sm text-muted-foreground">{T.limitNote(keys.data.limit)}</p>
            )}
            <KeyTable keys={keys.data.keys} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
