// The /settings Password section: a change of password proves the current one (PUT /auth/v1/user
// with `current_password`; every other session ends) and shows the one password policy beside the
// new one. For a forgotten current password it mails a recovery link to the account's address, the
// same link as 'Forgot password?' on sign-in (it lands on /reset-password).
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Inbox, MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AUTH_TEXT, AUTH_TOAST, SETTINGS_TEXT } from "@shared/messages";
import { changePasswordFormSchema, type ChangePasswordForm } from "@shared/schemas/password";
import { NewPasswordFields } from "@web/components/account/new-password-fields";
import { Button } from "@web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";
import { appConfigQueryOptions } from "@web/lib/auth-client";
import { useAuth } from "@web/lib/auth/auth-provider";

/** The identity service's refusals that are about the current password (the local stand-in's and GoTrue's codes). */
const CURRENT_PASSWORD_CODES = new Set(["invalid_credentials", "reauthentication_needed"]);
/** Refusals about the new password. */
const NEW_PASSWORD_CODES = new Set(["weak_password", "same_password"]);

const codeOf = (err: unknown) => (typeof err === "object" && err !== null && "code" in err ? String(err.code) : "");
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : AUTH_TOAST.passwordUpdateFailed);

function ChangePassword() {
  const { updatePassword } = useAuth();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    mode: "onTouched",
    defaultValues: { currentPassword: "", password: "", confirmPassword: "" },
  });

  const submit = handleSubmit(async ({ currentPassword, password }) => {
    // The provider shows the success or failure toast; a refusal is also shown on its field.
    try {
      await updatePassword(password, currentPassword);
      reset();
    } catch (err) {
      const code = codeOf(err);
      if (CURRENT_PASSWORD_CODES.has(code)) setError("currentPassword", { message: messageOf(err) }, { shouldFocus: true });
      else if (NEW_PASSWORD_CODES.has(code)) setError("password", { message: messageOf(err) }, { shouldFocus: true });
    }
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label={SETTINGS_TEXT.changePassword}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={SETTINGS_TEXT.currentPasswordLabel}
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register("currentPassword")}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordFields
          password={register("password", { deps: ["confirmPassword"] })}
          confirm={register("confirmPassword", { deps: ["password"] })}
          errors={{ password: errors.password?.message, confirm: errors.confirmPassword?.message }}
        />
      </div>
      <div className="flex justify-end">
        <SubmitButton pending={isSubmitting} pendingLabel={SETTINGS_TEXT.changingPassword}>
          {SETTINGS_TEXT.changePassword}
        </SubmitButton>
      </div>
    </form>
  );
}

/** 'Forgot password?': offers a recovery link to the account's address, then says it is on its way. */
function ForgotPassword({ email }: { email: string }) {
  const { requestPasswordReset } = useAuth();
  const config = useQuery(appConfigQueryOptions());
  const [step, setStep] = useState<"closed" | "offered" | "sending" | "sent">("closed");

  const send = async () => {
    setStep("sending");
    // The provider shows the failure toast.
    await requestPasswordReset(email).then(
      () => setStep("sent"),
      () => setStep("offered"),
    );
  };

  if (step === "closed") {
    return (
      <Button type="button" variant="link" className="h-auto w-fit p-0" onClick={() => setStep("offered")}>
        {AUTH_TEXT.forgotPassword}
      </Button>
    );
  }
  if (step === "sent") {
    return (
      <div role="status" className="grid gap-2 rounded-lg border border-border bg-muted/40 p-3 text-sm">
        <p className="flex items-center gap-2 font-semibold">
          <MailCheck className="size-4 text-primary" aria-hidden />
          {AUTH_TEXT.resetSentTitle}
        </p>
        <p className="break-words text-muted-foreground">{SETTINGS_TEXT.resetSent(email)}</p>
        {config.data?.localMailbox ? (
          <Button asChild variant="link" className="h-auto w-fit p-0">
            <Link to="/mailbox" search={{ email }}>
              <Inbox aria-hidden />
              {AUTH_TEXT.openLocalMailbox}
            </Link>
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <div className="grid gap-3 rounded-lg border border-border bg-muted/40 p-3 text-sm">
      <p className="break-words">{SETTINGS_TEXT.forgotOffer(email)}</p>
      <div className="flex flex-wrap gap-2">
        <SubmitButton type="button" size="sm" onClick={() => void send()} pending={step === "sending"} pendingLabel={AUTH_TEXT.sendingResetLink}>
          {AUTH_TEXT.sendResetLink}
        </SubmitButton>
        <Button type="button" size="sm" variant="outline" onClick={() => setStep("closed")} disabled={step === "sending"}>
          {SETTINGS_TEXT.cancel}
        </Button>
      </div>
    </div>
  );
}

export function PasswordSection({ email }: { email: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{SETTINGS_TEXT.passwordSection}</CardTitle>
        <CardDescription>{SETTINGS_TEXT.passwordSectionText}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ChangePassword />
        <ForgotPassword email={email} />
      </CardContent>
    </Card>
  );
}
