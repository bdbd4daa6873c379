// Visitors enter an email to see plans; an existing account goes to the login view instead.
import { Link, useNavigate } from "@tanstack/react-router";
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Card, CardContent } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { SubmitButton } from "@web/components/ui/submit-button";
import { readFirstScreenField } from "@web/boot/first-screen-field";
import { isExistingUser } from "../api/user-exists";

export function PlanPanel({ defaultEmail = "", submitted = false }: { defaultEmail?: string; submitted?: boolean }) {
  const navigate = useNavigate();
  // /auth is painted from the HTML before the app runs (decision 033): what was typed there stays.
  const [early] = useState(() => readFirstScreenField("plan-email"));
  const [email, setEmail] = useState(defaultEmail || early.value);
  const inputRef = useRef<HTMLInputElement>(null);
  // In the commit that replaces the focused field, before the browser paints: no frame without focus
  // (the router's pending panel gives way to the page's at once, decision 035).
  useLayoutEffect(() => {
    if (early.focused) inputRef.current?.focus();
  }, [early]);
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  async function proceed(value: string, replace = false) {
    setBusy(true);
    try {
      if (await isExistingUser(value)) await navigate({ to: "/auth", search: { login: 1, email: value }, replace });
      else await navigate({ to: "/buy", search: { email: value }, replace });
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = email.trim();
    if (!value || busy) return;
    await proceed(value);
  }

  // Sent by the HTML's form before the app ran: go on from here, once, in place of this address.
  const continued = useRef(false);
  useEffect(() => {
    const value = defaultEmail.trim();
    if (!submitted || !value || continued.current) return;
    continued.current = true;
    void proceed(value, true);
  });

  return (
    <Card>
      <AuthCardHeader title={AUTH_TEXT.planHeading} description={AUTH_TEXT.planText} />
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-4">
          <input type="hidden" name="submitted" value="1" />
          <div className="grid gap-2">
            <Label htmlFor={inputId}>{AUTH_TEXT.emailLabel}</Label>
            <Input
              ref={inputRef}
              id={inputId}
              data-first-screen-field="plan-email"
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
          <SubmitButton className="w-full" pending={busy} pendingLabel={AUTH_TEXT.checkingEmail}>
            {AUTH_TEXT.planButton}
          </SubmitButton>
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
