// Visitors enter an email to see plans; an existing account goes to the login view instead.
import { Link, useNavigate } from "@tanstack/react-router";
import { useId, useState, type FormEvent } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { Spinner } from "@web/components/ui/spinner";
import { isExistingUser } from "../api/user-exists";

export function PlanPanel({ defaultEmail = "" }: { defaultEmail?: string }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState(defaultEmail);
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!value || busy) return;
    setBusy(true);
    try {
      if (await isExistingUser(value)) await navigate({ to: "/auth", search: { login: 1, email: value } });
      else await navigate({ to: "/buy", search: { email: value } });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{AUTH_TEXT.planHeading}</CardTitle>
        <CardDescription>{AUTH_TEXT.planText}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={inputId}>{AUTH_TEXT.emailLabel}</Label>
            <Input
              id={inputId}
              name="email"
              type="email"
              required
              autoComplete="email"
              inputMode="email"
              placeholder="you@company.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? <Spinner className="size-4 text-primary-foreground" label={AUTH_TEXT.checkingEmail} /> : null}
            {AUTH_TEXT.planButton}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm">
          <Link to="/auth" search={{ login: 1 }} className="font-medium text-primary underline-offset-4 hover:underline">
            {AUTH_TEXT.planLoginLink}
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
