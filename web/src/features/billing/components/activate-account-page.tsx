// /activate-account (docs/product/screens-and-routes.md#route-table, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages): the activation link lands here with its one-time token in the
// fragment (`#token_hash=…&type=invite`); opening the page spends nothing. The account holder chooses
// a password, and submitting it spends the token (POST /auth/v1/verify, which answers the session in
// its body) and sets the password; then the dashboard, 0.8 s later. A link in Supabase's default form
// (the session in the fragment) is adopted as it is. Session tokens are never read from the query.
// An expired link (otp_expired) offers a new one.
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useState, type FormEvent } from "react";
import { ACTIVATION_TEXT } from "@shared/messages";
import { activationPasswordError } from "@shared/schemas/billing";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { NewPasswordFields } from "@web/components/account/new-password-fields";
import { Card, CardContent } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { Spinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { getAuthClient } from "@web/lib/auth-client";
import { dropFragment, readLinkToken, type LinkToken } from "@web/lib/auth/link-token";
import { resendActivation } from "../api/payment-session";

export const DONE_REDIRECT_MS = 800;

type State = "loading" | "expired" | "error" | "ready" | "updating" | "done";
export type ActivationSearch = { email?: string };

/** The link's parameters: the email from the query; the token, a session or an error from the fragment only. */
export function activationParams(search: ActivationSearch, hash: string) {
  const h = new URLSearchParams(hash.replace(/^#/, ""));
  return {
    email: search.email ?? h.get("email") ?? "",
    link: readLinkToken(hash, ["invite"]),
    accessToken: h.get("access_token") ?? "",
    refreshToken: h.get("refresh_token") ?? "",
    error: h.get("error"),
    errorCode: h.get("error_code"),
  };
}

/**
 * The text of a refused password: a password the identity service finds weak names the rule it
 * breaks (its message); a missing session says to use the link; anything else is the spec's text.
 */
export function updateRefusal(err: unknown): string {
  if (err instanceof Error && (err as { code?: unknown }).code === "weak_password" && err.message) return err.message;
  if (err instanceof Error && /session/i.test(err.message)) return ACTIVATION_TEXT.missingSession;
  return ACTIVATION_TEXT.updateFailed;
}

export function ActivateAccountPage({ search }: { search: ActivationSearch }) {
  const navigate = useNavigate();
  const [state, setState] = useState<State>("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [email, setEmail] = useState(search.email ?? "");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [resending, setResending] = useState(false);
  // The link's unspent token, held until the password is submitted.
  const [link, setLink] = useState<LinkToken | null>(null);

  useEffect(() => {
    let cancelled = false;
    const p = activationParams(search, window.location.hash);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the link in the address is read after mount, where the page also clears it
    if (p.email) setEmail(p.email);
    if (p.link) {
      setLink(p.link);
      dropFragment();
      setState("ready");
      return;
    }
    if (p.error || p.errorCode) {
      const expired = p.errorCode === "otp_expired" && p.error === "access_denied";
      setState(expired ? "expired" : "error");
      setMessage(expired ? ACTIVATION_TEXT.expired : ACTIVATION_TEXT.missingSession);
      return;
    }
    if (!p.accessToken || !p.refreshToken) {
      setState("error");
      setMessage(ACTIVATION_TEXT.missingSession);
      return;
    }
    getAuthClient()
      .then((client) => client.auth.setSession({ access_token: p.accessToken, refresh_token: p.refreshToken }))
      .then(({ error }) => {
        if (cancelled) return;
        if (error) throw error;
        // The tokens leave the address bar once the session holds them.
        window.history.replaceState(null, "", `/activate-account${p.email ? `?email=${encodeURIComponent(p.email)}` : ""}`);
        setState("ready");
      })
      .catch(() => {
        if (cancelled) return;
        setState("error");
        setMessage(ACTIVATION_TEXT.missingSession);
      });
    return () => {
      cancelled = true;
    };
    // The link is read once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (state !== "done") return;
    const timer = setTimeout(() => void navigate({ to: "/dashboard" }), DONE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  async function onActivate(event: FormEvent) {
    event.preventDefault();
    const problem = activationPasswordError(password, confirm);
    if (problem) {
      setMessage(problem);
      return;
    }
    setMessage(null);
    setState("updating");
    const client = await getAuthClient().catch(() => null);
    if (!client) {
      setMessage(ACTIVATION_TEXT.updateFailed);
      setState("ready");
      return;
    }
    if (link) {
      // The explicit action that spends the link: its session comes in the answer's body.
      const { error } = await client.auth.verifyOtp({ token_hash: link.tokenHash, type: "invite" });
      if (error) {
        const expired = error.code === "otp_expired";
        setState(expired ? "expired" : "error");
        setMessage(expired ? ACTIVATION_TEXT.expired : ACTIVATION_TEXT.missingSession);
        return;
      }
      setLink(null);
    }
    try {
      const { error } = await client.auth.updateUser({ password });
      if (error) throw error;
      setState("done");
    } catch (err) {
      setMessage(updateRefusal(err));
      setState("ready");
    }
  }

  async function onResend(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setMessage(ACTIVATION_TEXT.resendEmailRequired);
      return;
    }
    setResending(true);
    try {
      await resendActivation(email.trim());
      setMessage(ACTIVATION_TEXT.resendDone);
      setState("ready");
    } catch {
      setMessage(ACTIVATION_TEXT.resendFailed);
    } finally {
      setResending(false);
    }
  }

  const resendForm = (
    <form noValidate onSubmit={onResend} className="grid gap-3">
      <FormField label={ACTIVATION_TEXT.email} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <SubmitButton variant="outline" pending={resending} pendingLabel={ACTIVATION_TEXT.resend}>
        {ACTIVATION_TEXT.resend}
      </SubmitButton>
    </form>
  );

  return (
    <Card className="mx-auto max-w-md">
      <AuthCardHeader
        title={ACTIVATION_TEXT.title}
        description={
          state === "ready" || state === "updating" ? (
            <>
              {ACTIVATION_TEXT.readyText} <span className="font-medium break-all text-foreground">{email}</span>
            </>
          ) : null
        }
      />
      <CardContent className="grid gap-4">
        {message ? (
          <p role={state === "ready" && message === ACTIVATION_TEXT.resendDone ? "status" : "alert"} className="text-sm font-medium">
            {message}
          </p>
        ) : null}
        {state === "loading" ? <Spinner label={ACTIVATION_TEXT.loading} /> : null}
        {state === "ready" || state === "updating" ? (
          <form noValidate onSubmit={onActivate} className="grid gap-4">
            <NewPasswordFields
              labels={{ password: ACTIVATION_TEXT.password, confirm: ACTIVATION_TEXT.confirmPassword }}
              password={{ value: password, onChange: (e) => setPassword(e.target.value) }}
              confirm={{ value: confirm, onChange: (e) => setConfirm(e.target.value) }}
            />
            <SubmitButton pending={state === "updating"} pendingLabel={ACTIVATION_TEXT.updating}>
              {ACTIVATION_TEXT.activate}
            </SubmitButton>
          </form>
        ) : null}
        {state === "done" ? <p role="status">{ACTIVATION_TEXT.done}</p> : null}
        {state === "expired" || state === "error" ? resendForm : null}
      </CardContent>
    </Card>
  );
}
