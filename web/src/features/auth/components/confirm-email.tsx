// After registration: the address to confirm, tips, resend and "I've Confirmed" (docs/product/dashboard-and-counts.md#sections-and-who-sees-them), which
// asks whether the address is confirmed before showing 'Email Confirmed!'.
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Inbox, MailCheck, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { SubmitButton } from "@web/components/ui/submit-button";
import { appConfigQueryOptions } from "@web/lib/auth-client";
import { useAuth } from "@web/lib/auth/auth-provider";
import { signUpProof } from "@web/lib/auth/sign-up-proof";
import { isEmailConfirmed } from "../api/email-confirmed";

export function ConfirmEmail({ email }: { email: string }) {
  const { resend } = useAuth();
  const navigate = useNavigate();
  const config = useQuery(appConfigQueryOptions());
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  async function onResend() {
    setSending(true);
    // The provider shows the success or failure toast.
    await resend(email).catch(() => undefined);
    setSending(false);
  }

  /**
   * 'Email Confirmed!' only for an address that is confirmed. Asked with the account id this tab's
   * sign-up answered with; without one (another tab, storage blocked), signing in is the check.
   */
  async function onConfirmed() {
    const userId = signUpProof(email);
    if (!userId) {
      await navigate({ to: "/auth", search: { tab: "signin", email } });
      return;
    }
    setChecking(true);
    setNotice(null);
    let confirmed: boolean;
    try {
      confirmed = await isEmailConfirmed(email, userId);
    } catch {
      setNotice(AUTH_TEXT.confirmationCheckFailed);
      setChecking(false);
      return;
    }
    if (confirmed) {
      await navigate({ to: "/auth", search: { confirmed: 1, email } });
      return;
    }
    setNotice(AUTH_TEXT.notConfirmedYet);
    setChecking(false);
  }

  return (
    <Card>
      <AuthCardHeader
        centered
        icon={MailCheck}
        title={AUTH_TEXT.confirmTitle}
        description={
          <>
            {AUTH_TEXT.confirmSentTo}
            <strong className="mt-1 block font-semibold break-all text-foreground">{email}</strong>
          </>
        }
      />
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
        {notice ? (
          <div
            role="alert"
            className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>{notice}</p>
          </div>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <SubmitButton type="button" variant="outline" onClick={onResend} pending={sending} pendingLabel={AUTH_TEXT.resendEmail}>
            {AUTH_TEXT.resendEmail}
          </SubmitButton>
          <SubmitButton type="button" onClick={() => void onConfirmed()} pending={checking} pendingLabel={AUTH_TEXT.checkingConfirmation}>
            {AUTH_TEXT.iveConfirmed}
          </SubmitButton>
        </div>
      </CardContent>
    </Card>
  );
}
