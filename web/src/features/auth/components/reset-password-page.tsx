// /reset-password: where an emailed recovery link lands, with its one-time token in the fragment
// (`#token_hash=…&type=recovery`); opening the page spends nothing. Submitting the form spends the
// token (supabase-js verifyOtp: POST /auth/v1/verify, the recovery session in its answer) and then
// sets the new password under the one password policy. A link in Supabase's default form (the
// session in the fragment) is adopted by supabase-js, which announces PASSWORD_RECOVERY.
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useLocation, useNavigate } from "@tanstack/react-router";
import { KeyRound, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { AUTH_TEXT } from "@shared/messages";
import { newPasswordFormSchema, type NewPasswordForm } from "@shared/schemas/password";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { NewPasswordFields } from "@web/components/account/new-password-fields";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { PageSpinner } from "@web/components/ui/spinner";
import { SubmitButton } from "@web/components/ui/submit-button";
import { useDocumentTitle } from "@web/lib/document-title";
import { getAuthClient } from "@web/lib/auth-client";
import { useAuth } from "@web/lib/auth/auth-provider";
import { dropFragment, readLinkToken, type LinkToken } from "@web/lib/auth/link-token";
import { AuthShell } from "./auth-shell";

function NewPasswordCard({ link, onUnusable }: { link: LinkToken | null; onUnusable: () => void }) {
  const { updatePassword } = useAuth();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    mode: "onChange",
    defaultValues: { password: "", confirmPassword: "" },
  });

  const submit = handleSubmit(async ({ password }) => {
    if (link) {
      // The explicit action that spends the recovery link.
      const { error } = await (await getAuthClient()).auth.verifyOtp({ token_hash: link.tokenHash, type: "recovery" });
      if (error) {
        onUnusable();
        return;
      }
    }
    // The provider shows the success or failure toast (a refused password names the rule it breaks).
    const ok = await updatePassword(password).then(
      () => true,
      () => false,
    );
    if (ok) await navigate({ to: "/dashboard", replace: true });
  });

  return (
    <Card>
      <AuthCardHeader icon={KeyRound} title={AUTH_TEXT.newPasswordHeading} description={AUTH_TEXT.newPasswordText} />
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label={AUTH_TEXT.newPasswordHeading}>
          <NewPasswordFields
            // eslint-disable-next-line jsx-a11y/no-autofocus -- this screen is the form: focus starts in its first field
            autoFocus
            password={register("password", { deps: ["confirmPassword"] })}
            confirm={register("confirmPassword", { deps: ["password"] })}
            errors={{ password: errors.password?.message, confirm: errors.confirmPassword?.message }}
          />
          <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={AUTH_TEXT.savingPassword}>
            {AUTH_TEXT.savePassword}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}

function UnusableLink() {
  return (
    <Card>
      <AuthCardHeader title={AUTH_TEXT.forgotHeading} />
      <CardContent className="grid gap-4">
        <div role="alert" className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p className="text-foreground">{AUTH_TEXT.recoveryLinkUnusable}</p>
        </div>
        <Button asChild>
          <Link to="/auth" search={{ forgot: 1 }}>
            {AUTH_TEXT.sendResetLink}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

export function ResetPasswordPage() {
  useDocumentTitle(AUTH_TEXT.newPasswordHeading);
  const { session, isLoading } = useAuth();
  // A failed link (Supabase redirects here with #error=...) leaves its error in the fragment.
  const hash = useLocation({ select: (location) => location.hash });
  const [link] = useState(() => readLinkToken(hash, ["recovery"]));
  const [unusable, setUnusable] = useState(false);
  useEffect(() => {
    if (link) dropFragment();
  }, [link]);
  const failed = unusable || /(^|&)error(_code)?=/.test(hash.replace(/^#/, ""));
  const usable = !failed && (Boolean(link) || Boolean(session));
  return (
    <AuthShell>
      {isLoading && !link ? <PageSpinner /> : usable ? <NewPasswordCard link={link} onUnusable={() => setUnusable(true)} /> : <UnusableLink />}
    </AuthShell>
  );
}
