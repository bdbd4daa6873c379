// /payments/success (docs/product/screens-and-routes.md#route-table, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages, docs/product/constants.md#business-constants): the session is looked up (once more after 3 s). When the
// session created the account and its password is not set, the buyer creates one (the session is the
// server-side proof) and is signed in; an account signed in already (an upgrade) goes to its
// dashboard; then the details (plan, amount) with 'Download Receipt' and Go to Dashboard, or, for a
// payer not signed in, how to activate the account or sign in. Without details, a fallback confirmation.
import { Link, useNavigate } from "@tanstack/react-router";
import { CheckCircle2 } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { PAYMENT_TEXT } from "@shared/messages";
import { paymentPasswordError, type CheckoutSessionView } from "@shared/schemas/billing";
import { formatAmount } from "@web/api/billing";
import { NewPasswordFields } from "@web/components/account/new-password-fields";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { ApiError, errorMessage } from "@web/lib/api";
import { useAuth } from "@web/lib/auth/auth-provider";
import { saveBlob } from "@web/lib/download";
import { getCheckoutSession, setFirstPassword } from "../api/payment-session";

export const SESSION_RETRY_MS = 3000;

type Phase = { name: "loading" } | { name: "password"; session: CheckoutSessionView } | { name: "details"; session: CheckoutSessionView | null };

/** The session id from the query, else from the hash (docs/product/screens-and-routes.md#route-table). */
export function sessionIdFrom(query: string | undefined, hash: string) {
  return query ?? (new URLSearchParams(hash.replace(/^#/, "")).get("session_id") || undefined);
}

/** "Pro · Annual": the plan the session bought, or null when the session does not say. */
export function planLabel(session: Pick<CheckoutSessionView, "plan_name" | "interval">) {
  if (!session.plan_name) return null;
  const interval = session.interval === "year" ? PAYMENT_TEXT.annual : session.interval === "month" ? PAYMENT_TEXT.monthly : null;
  return interval ? `${session.plan_name} · ${interval}` : session.plan_name;
}

export function PaymentSuccessPage({ sessionId }: { sessionId?: string }) {
  const [phase, setPhase] = useState<Phase>({ name: "loading" });
  const auth = useAuth();
  const navigate = useNavigate();

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const id = sessionIdFrom(sessionId, window.location.hash);
    if (!id) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the session id in the address is read after mount, like the lookup it starts
      setPhase({ name: "details", session: null });
      return;
    }
    const show = async (session: CheckoutSessionView) => {
      if (cancelled) return;
      if (session.status !== "complete") return setPhase({ name: "details", session: null });
      if (session.needs_password) return setPhase({ name: "password", session });
      // The account has its password: the one signed in goes to its dashboard, anyone else sees the details.
      const user = await auth.whenSettled();
      if (cancelled) return;
      if (user && session.customer_email && user.email.toLowerCase() === session.customer_email.toLowerCase()) {
        toast({ title: PAYMENT_TEXT.successTitle, description: planLabel(session) ? `${PAYMENT_TEXT.upgraded} ${planLabel(session)}.` : undefined });
        void navigate({ to: "/dashboard" });
        return;
      }
      setPhase({ name: "details", session });
    };
    getCheckoutSession(id)
      .then(show)
      .catch(() => {
        // One more try after 3 s: the provider may still be completing the session.
        timer = setTimeout(() => {
          getCheckoutSession(id)
            .then(show)
            .catch(() => !cancelled && setPhase({ name: "details", session: null }));
        }, SESSION_RETRY_MS);
      });
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
    // auth and navigate are stable for the page's life; the lookup runs once per session id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);

  if (phase.name === "loading") {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={PAYMENT_TEXT.loading} />
      </div>
    );
  }
  if (phase.name === "password") return <CreatePassword session={phase.session} onDone={() => setPhase({ name: "details", session: phase.session })} />;
  return <PaymentDetails session={phase.session} />;
}

function CreatePassword({ session, onDone }: { session: CheckoutSessionView; onDone: () => void }) {
  const auth = useAuth();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const email = session.customer_email;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email) {
      setError(PAYMENT_TEXT.noEmail);
      return;
    }
    const problem = paymentPasswordError(password, confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await setFirstPassword({ email, password, sessionId: session.id });
    } catch (err) {
      // The account has a password already: nothing to create, on to the details.
      if (err instanceof ApiError && err.status === 409) {
        toast({ title: PAYMENT_TEXT.createFailed, description: errorMessage(err, PAYMENT_TEXT.createFailed) });
        onDone();
        return;
      }
      setError(errorMessage(err, PAYMENT_TEXT.createFailed));
      setBusy(false);
      return;
    }
    try {
      await auth.signIn(email, password);
    } catch {
      // signIn has told the user; the password is set, so the details still follow.
    }
    onDone();
  }

  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <CheckCircle2 className="size-10 text-success" aria-hidden />
        <CardTitle as="h1" className="text-2xl">{PAYMENT_TEXT.successTitle}</CardTitle>
        <CardDescription>
          {PAYMENT_TEXT.createPasswordText} {email ? <span className="font-medium break-all text-foreground">{email}</span> : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <h2 className="text-lg font-medium">{PAYMENT_TEXT.createPasswordTitle}</h2>
          {!email ? <p role="alert" className="text-sm font-medium text-destructive">{PAYMENT_TEXT.noEmail}</p> : null}
          <NewPasswordFields
            labels={{ password: PAYMENT_TEXT.password, confirm: PAYMENT_TEXT.confirmPassword }}
            password={{ value: password, onChange: (e) => setPassword(e.target.value) }}
            confirm={{ value: confirm, onChange: (e) => setConfirm(e.target.value) }}
          />
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <SubmitButton pending={busy} pendingLabel={PAYMENT_TEXT.creatingPassword}>
            {PAYMENT_TEXT.createPassword}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}

function PaymentDetails({ session }: { session: CheckoutSessionView | null }) {
  const navigate = useNavigate();
  // A payer who is not signed in would only be sent to sign in by the dashboard: told how to go on.
  const signedIn = useAuth().user !== null;
  const amount = session?.amount_total != null ? formatAmount(session.amount_total, session.currency) : PAYMENT_TEXT.fallbackAmount;
  const download = () => {
    const receipt = session ?? { amount: PAYMENT_TEXT.fallbackAmount };
    saveBlob(new Blob([JSON.stringify(receipt, null, 2)], { type: "application/json" }), `receipt-${session?.id ?? "payment"}.json`);
  };
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <CheckCircle2 className="size-10 text-success" aria-hidden />
        <CardTitle as="h1" className="text-2xl">{session ? PAYMENT_TEXT.successTitle : PAYMENT_TEXT.confirmationTitle}</CardTitle>
        {!session ? <CardDescription>{PAYMENT_TEXT.confirmationText}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{PAYMENT_TEXT.amount}</dt>
          <dd data-testid="payment-amount" className="font-medium">{amount}</dd>
          {session ? (
            <>
              {planLabel(session) ? (
                <>
                  <dt className="text-muted-foreground">{PAYMENT_TEXT.plan}</dt>
                  <dd data-testid="payment-plan" className="font-medium">{planLabel(session)}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">{PAYMENT_TEXT.status}</dt>
              <dd>{session.payment_status}</dd>
              <dt className="text-muted-foreground">{PAYMENT_TEXT.email}</dt>
              <dd className="break-all">{session.customer_email ?? "–"}</dd>
              {session.customer_details?.name ? (
                <>
                  <dt className="text-muted-foreground">{PAYMENT_TEXT.name}</dt>
                  <dd>{session.customer_details.name}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">{PAYMENT_TEXT.reference}</dt>
              <dd className="break-all">{session.payment_intent ?? session.id}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" onClick={download}>
            {PAYMENT_TEXT.downloadReceipt}
          </Button>
          {signedIn ? (
            <Button onClick={() => void navigate({ to: "/dashboard" })}>{PAYMENT_TEXT.goToDashboard}</Button>
          ) : (
            <Button asChild>
              <Link to="/auth" search={{ login: 1 }}>
                {PAYMENT_TEXT.signIn}
              </Link>
            </Button>
          )}
        </div>
        {signedIn ? null : <p className="text-sm text-muted-foreground">{PAYMENT_TEXT.activateOrSignIn}</p>}
      </CardContent>
    </Card>
  );
}

export function PaymentCancelPage() {
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{PAYMENT_TEXT.cancelTitle}</CardTitle>
        <CardDescription>{PAYMENT_TEXT.cancelText}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => window.history.back()}>
          {PAYMENT_TEXT.tryAgain}
        </Button>
        <Button asChild>
          <Link to="/auth">{PAYMENT_TEXT.goToAuth}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
