// System Configuration (docs/product/screens-and-routes.md#route-table, docs/product/errors-and-texts.md#validation-messages): the phone-number limit per account, Edit / Save / Cancel;
// a number from 1 to 100, empty falls back to 1.
import { Pencil } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { PHONE_LIMIT } from "@shared/constants";
import { ADMIN_TEXT, PHONE_API_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Skeleton } from "@web/components/ui/skeleton";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useAdminPhoneLimit, useSetPhoneLimit } from "../api/admin";

/** The input as the limit to save: empty is 1; anything else must be a whole number in range. */
export function parseLimitInput(text: string): number | null {
  if (text.trim() === "") return PHONE_LIMIT.min;
  const n = Number(text);
  return Number.isInteger(n) && n >= PHONE_LIMIT.min && n <= PHONE_LIMIT.max ? n : null;
}

export function SystemConfigCard() {
  const limit = useAdminPhoneLimit();
  const save = useSetPhoneLimit();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();

  useEffect(() => {
    if (limit.isError) toast({ variant: "destructive", title: ADMIN_TEXT.phoneLimitFetchFailed, description: errorMessage(limit.error, ADMIN_TEXT.phoneLimitFetchFailed) });
  }, [limit.isError, limit.error]);

  const startEdit = () => {
    setText(String(limit.data?.phoneNumberLimit ?? PHONE_LIMIT.default));
    setInvalid(false);
    setEditing(true);
  };
  const submit = () => {
    const value = parseLimitInput(text);
    if (value === null) {
      setInvalid(true);
      return;
    }
    save.mutate(value, {
      onSuccess: (res) => {
        setEditing(false);
        toast({ title: ADMIN_TEXT.configurationUpdated, description: `${ADMIN_TEXT.phoneNumberLimit}: ${res.phoneNumberLimit}` });
      },
      onError: (err) => toast({ variant: "destructive", title: ADMIN_TEXT.phoneLimitSaveFailed, description: errorMessage(err, ADMIN_TEXT.phoneLimitSaveFailed) }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{ADMIN_TEXT.systemConfiguration}</CardTitle>
        <CardDescription>{ADMIN_TEXT.phoneLimitHint}</CardDescription>
      </CardHeader>
      <CardContent>
        {editing ? (
          <form
            // Range errors are shown in our words, not the browser's bubble.
            noValidate
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor={inputId}>{ADMIN_TEXT.phoneNumberLimit}</Label>
              <Input
                id={inputId}
                type="number"
                inputMode="numeric"
                min={PHONE_LIMIT.min}
                max={PHONE_LIMIT.max}
                className="w-32"
                value={text}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? `${inputId}-error` : undefined}
                onChange={(e) => {
                  setText(e.target.value);
                  setInvalid(false);
                }}
                // eslint-disable-next-line jsx-a11y/no-autofocus -- Edit replaces itself with this field, so focus moves to it
                autoFocus
              />
              {invalid ? (
                <p id={`${inputId}-error`} className="text-sm text-destructive">
                  {PHONE_API_TEXT.limitRange}
                </p>
              ) : null}
            </div>
            <div className="flex gap-2">
              <SubmitButton pending={save.isPending}>{ADMIN_TEXT.save}</SubmitButton>
              <Button type="button" variant="outline" onClick={() => setEditing(false)} disabled={save.isPending}>
                {ADMIN_TEXT.cancel}
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex items-center justify-between gap-4">
            <div>
              <p className="text-sm text-muted-foreground">{ADMIN_TEXT.phoneNumberLimit}</p>
              {limit.data ? (
                <p className="text-2xl font-semibold tabular-nums" data-testid="phone-limit-value">
                  {limit.data.phoneNumberLimit}
                </p>
              ) : limit.isError ? (
                <p className="text-sm text-destructive">{ADMIN_TEXT.phoneLimitFetchFailed}</p>
              ) : (
                <Skeleton className="mt-1 h-7 w-12" />
              )}
            </div>
            <Button variant="outline" onClick={startEdit} disabled={!limit.data}>
              <Pencil aria-hidden />
              {ADMIN_TEXT.edit}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
