// /reset-password: where an emailed recovery link lands. supabase-js adopts the link's session and
// announces PASSWORD_RECOVERY; the form then sets a new password under spec 2's rules.
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useLocation, useNavigate } from "@tanstack/react-router";
import { KeyRound, TriangleAlert } from "lucide-react";
import { useForm } from "react-hook-form";
import { AUTH_TEXT } from "@shared/messages";
import { newPasswordFormSchema, type NewPasswordForm } from "@shared/schemas/password";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { PageSpinner, Spinner } from "@web/components/ui/spinner";
import { useDocumentTitle } from "@web/lib/document-title";
import { useAuth } from "@web/lib/auth/auth-provider";
import { AuthShell } from "./auth-shell";

function NewPasswordCard() {
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
    // The provider shows the success or failure toast.
    const ok = await updatePassword(password).then(
      () => true,
      () => false,
    );
    if (ok) await navigate({ to: "/dashboard", replace: true });
  });

  return (
    <Card>
      <CardHeader>
        <span className="mb-2 grid size-12 place-items-center rounded-full bg-brand-100 text-primary" aria-hidden>
          <KeyRound className="size-6" />
        </span>
        <CardTitle as="h1" className="text-2xl">{AUTH_TEXT.newPasswordHeading}</CardTitle>
        <CardDescription>{AUTH_TEXT.newPasswordText}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label={AUTH_TEXT.newPasswordHeading}>
          <FormField
            label={AUTH_TEXT.newPasswordLabel}
            type="password"
            autoComplete="new-password"
            autoFocus
            hint={AUTH_TEXT.newPasswordRules}
            error={errors.password?.message}
            {...register("password", { deps: ["confirmPassword"] })}
          />
          <FormField
            label={AUTH_TEXT.confirmNewPasswordLabel}
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register("confirmPassword", { deps: ["password"] })}
          />
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? <Spinner className="size-4 text-primary-foreground" label={AUTH_TEXT.savingPassword} /> : null}
            {AUTH_TEXT.savePassword}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function UnusableLink() {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{AUTH_TEXT.forgotHeading}</CardTitle>
      </CardHeader>
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
  const failed = /(^|&)error(_code)?=/.test(hash.replace(/^#/, ""));
  return (
    <AuthShell>
      {isLoading ? <PageSpinner /> : session && !failed ? <NewPasswordCard /> : <UnusableLink />}
    </AuthShell>
  );
}
