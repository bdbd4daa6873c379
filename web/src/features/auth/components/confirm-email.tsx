// After registration: the address to confirm, tips, resend and "I've Confirmed" (spec 1 §2).
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Inbox, MailCheck } from "lucide-react";
import { useState } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { appConfigQueryOptions } from "@web/lib/auth-client";
import { useAuth } from "@web/lib/auth/auth-provider";

export function ConfirmEmail({ email }: { email: string }) {
  const { resend } = useAuth();
  const navigate = useNavigate();
  const config = useQuery(appConfigQueryOptions());
  const [sending, setSending] = useState(false);

  async function onResend() {
    setSending(true);
    // The provider shows the success or failure toast.
    await resend(email).catch(() => undefined);
    setSending(false);
  }

  return (
    <Card>
      <CardHeader className="items-center text-center">
        <span className="mb-2 grid size-12 place-items-center rounded-full bg-brand-100 text-primary" aria-hidden>
          <MailCheck className="size-6" />
        </span>
        <CardTitle as="h1" className="text-2xl">{AUTH_TEXT.confirmTitle}</CardTitle>
        <CardDescription>
          {AUTH_TEXT.confirmSentTo}
          <strong className="mt-1 block font-semibold break-all text-foreground">{email}</strong>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <p className="text-center text-sm text-muted-foreground">{AUTH_TEXT.confirmInstructions}</p>
        <div className="rounded-lg border border-border bg-muted/50 p-4">
          <p className="text-sm font-medium">{AUTH_TEXT.confirmTipsTitle}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            {AUTH_TEXT.confirmTips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </div>
        {config.data?.localMailbox ? (
          <Button asChild variant="link" className="h-auto justify-center p-0">
            <Link to="/mailbox" search={{ email }}>
              <Inbox aria-hidden />
              {AUTH_TEXT.openLocalMailbox}
            </Link>
          </Button>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <Button variant="outline" onClick={onResend} disabled={sending}>
            {sending ? <Spinner className="size-4" label={AUTH_TEXT.resendEmail} /> : null}
            {AUTH_TEXT.resendEmail}
          </Button>
          <Button onClick={() => void navigate({ to: "/auth", search: { confirmed: 1, email } })}>{AUTH_TEXT.iveConfirmed}</Button>
        </div>
      </CardContent>
    </Card>
  );
}
