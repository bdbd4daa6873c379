// /auth?forgot=1: asks for a password-recovery link. The answer does not say whether the account
// exists, so the panel shows the same "check your email" either way.
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Inbox, MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AUTH_TEXT } from "@shared/messages";
import { planEmailSchema } from "@shared/schemas/auth";
import { AuthCardHeader } from "@web/components/account/auth-card-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";
import { appConfigQueryOptions } from "@web/lib/auth-client";
import { useAuth } from "@web/lib/auth/auth-provider";

export function ForgotPasswordPanel({ defaultEmail }: { defaultEmail: string }) {
  const { requestPasswordReset } = useAuth();
  const config = useQuery(appConfigQueryOptions());
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ resolver: zodResolver(planEmailSchema), mode: "onChange", defaultValues: { email: defaultEmail } });

  const submit = handleSubmit(async ({ email }) => {
    // The provider shows the failure toast.
    await requestPasswordReset(email).then(
      () => setSentTo(email),
      () => undefined,
    );
  });

  const back = (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
      <Link to="/auth" search={{ login: 1, email: sentTo ?? (defaultEmail || undefined) }}>
        <ArrowLeft aria-hidden />
        {AUTH_TEXT.backToLogin}
      </Link>
    </Button>
  );

  if (sentTo) {
    return (
      <Card>
        <AuthCardHeader
          back={back}
          icon={MailCheck}
          title={AUTH_TEXT.resetSentTitle}
          description={
            <>
              <strong className="block font-semibold break-all text-foreground">{sentTo}</strong>
              {AUTH_TEXT.resetSentText}
            </>
          }
        />
        {config.data?.localMailbox ? (
          <CardContent>
            <Button asChild variant="link" className="h-auto p-0">
              <Link to="/mailbox" search={{ email: sentTo }}>
                <Inbox aria-hidden />
                {AUTH_TEXT.openLocalMailbox}
              </Link>
            </Button>
          </CardContent>
        ) : null}
      </Card>
    );
  }

  return (
    <Card>
      <AuthCardHeader back={back} title={AUTH_TEXT.forgotHeading} description={AUTH_TEXT.forgotText} />
      <CardContent>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label={AUTH_TEXT.forgotHeading}>
          <FormField
            label={AUTH_TEXT.emailLabel}
            type="email"
            autoComplete="email"
            inputMode="email"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- this screen is the form: focus starts in its first field
            autoFocus
            error={errors.email?.message}
            {...register("email")}
          />
          <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={AUTH_TEXT.sendingResetLink}>
            {AUTH_TEXT.sendResetLink}
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
