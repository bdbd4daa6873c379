// /auth: picks the view from the search parameters (the route sends a signed-in user on to the dashboard).
import { useLocation } from "@tanstack/react-router";
import { TriangleAlert } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { PageSpinner } from "@web/components/ui/spinner";
import { useDocumentTitle } from "@web/lib/document-title";
import { whenIdleAfterLoad } from "@web/lib/idle";
import { readLastEmail } from "@web/lib/auth/last-email";
import { confirmLink, dropFragment, LinkError, readLinkToken } from "@web/lib/auth/link-token";
import type { AuthSearch } from "../auth-search";
import { endLinkSession } from "@web/lib/auth/end-link-session";
import { readConfirmationLanding, stripFragment, type ConfirmationLanding } from "../confirmation-landing";
import { AuthShell } from "./auth-shell";
import { ConfirmEmail } from "./confirm-email";
import { EmailConfirmed } from "./email-confirmed";
import { PlanPanel } from "./plan-panel";

// The forms (react-hook-form and zod) load on their own, so the plan panel a visitor sees first stays light.
const loadAuthForm = () => import("./auth-form");
const loadLoginPanel = () => import("./login-panel");
const loadForgotPanel = () => import("./forgot-password-panel");
const AuthForm = lazy(() => loadAuthForm().then((m) => ({ default: m.AuthForm })));
const LoginPanel = lazy(() => loadLoginPanel().then((m) => ({ default: m.LoginPanel })));
const ForgotPasswordPanel = lazy(() => loadForgotPanel().then((m) => ({ default: m.ForgotPasswordPanel })));

/**
 * A failed confirmation link: its code comes from spending it here (`failedCode`), or in the fragment
 * (`#error_code=...`, as Supabase redirects a link it refused). Only known codes pick a fixed text.
 */
function LinkErrorNotice({ hash, failedCode }: { hash: string; failedCode: string | null }) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (!failedCode && !params.get("error") && !params.get("error_code")) return null;
  const code = failedCode ?? params.get("error_code");
  const text = code === "otp_expired" ? AUTH_TEXT.linkExpired : code === "email_exists" ? AUTH_TEXT.emailTaken : AUTH_TEXT.linkInvalid;
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>{text}</p>
    </div>
  );
}

/** What a confirmation link that landed here came to: confirmed, still being spent, or refused. */
type Landing = { confirmed: ConfirmationLanding | null; pending: boolean; failedCode: string | null };

/**
 * A confirmation link that landed here. With `#token_hash=…&type=signup|email_change` the page
 * spends it (POST /auth/v1/verify) and shows 'Email Confirmed!'; a GET of the page spent nothing.
 * With a session in the fragment (Supabase's default link): read once, the tokens leave the URL and
 * the link's session is ended. Either way the fragment leaves the address bar at once.
 */
function useConfirmationLanding(hash: string): Landing {
  const [link] = useState(() => readLinkToken(hash, ["signup", "email_change"]));
  const [fromSession] = useState(() => (link ? null : readConfirmationLanding(hash)));
  const [landing, setLanding] = useState<Landing>({ confirmed: fromSession, pending: Boolean(link), failedCode: null });
  useEffect(() => {
    if (fromSession) {
      stripFragment();
      void endLinkSession(fromSession.accessToken);
    }
  }, [fromSession]);
  useEffect(() => {
    if (!link) return;
    dropFragment();
    let cancelled = false;
    confirmLink(link).then(
      ({ email }) => !cancelled && setLanding({ confirmed: { email, accessToken: "" }, pending: false, failedCode: null }),
      (err: unknown) =>
        !cancelled && setLanding({ confirmed: null, pending: false, failedCode: err instanceof LinkError ? err.code : "otp_invalid" }),
    );
    return () => {
      cancelled = true;
    };
  }, [link]);
  return landing;
}

function AuthView({ search, landing }: { search: AuthSearch; landing: ConfirmationLanding | null }) {
  // Once the page has loaded and the main thread is idle, fetch the form chunks so switching views
  // does not wait; not earlier, so they never compete with the first paint (decision 023).
  useEffect(
    () =>
      whenIdleAfterLoad(() => {
        void loadLoginPanel();
        void loadAuthForm();
      }),
    [],
  );
  const email = search.email ?? "";
  if (landing) return <EmailConfirmed email={landing.email} />;
  if (search.confirmed) return <EmailConfirmed email={email} />;
  if (search.forgot) return <ForgotPasswordPanel defaultEmail={email || readLastEmail()} />;
  if (search.confirm && email) return <ConfirmEmail email={email} />;
  if (search.tab) return <AuthForm tab={search.tab} defaultEmail={email || (search.tab === "signin" ? readLastEmail() : "")} />;
  if (search.login) return <LoginPanel defaultEmail={email || readLastEmail()} />;
  return <PlanPanel defaultEmail={email} submitted={search.submitted === 1} />;
}

export function AuthPage({ search }: { search: AuthSearch }) {
  useDocumentTitle(search.login ? AUTH_TEXT.loginHeading : AUTH_TEXT.planHeading);
  const hash = useLocation({ select: (location) => location.hash });
  const landing = useConfirmationLanding(hash);
  // 'Email Confirmed!' stays until the page moves on (Continue to Sign In changes the search).
  const [landedAt] = useState(() => JSON.stringify(search));
  const confirmed = JSON.stringify(search) === landedAt ? landing.confirmed : null;

  return (
    <AuthShell notice={<LinkErrorNotice hash={landing.pending ? "" : hash} failedCode={landing.failedCode} />}>
      <Suspense fallback={<PageSpinner />}>
        {landing.pending ? <PageSpinner /> : <AuthView search={search} landing={confirmed} />}
      </Suspense>
    </AuthShell>
  );
}
