// Email + password sign-in; validates on every change (docs/product/errors-and-texts.md#validation-messages).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { AUTH_TEXT } from "@shared/messages";
import { loginFormSchema, type LoginForm as LoginValues } from "@shared/schemas/auth";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";

export function LoginForm({
  defaultEmail = "",
  onSubmit,
  onEmailChange,
}: {
  defaultEmail?: string;
  /** Told the email as it is typed ('Forgot password?' carries it along). */
  onEmailChange?: (email: string) => void;
  /** Shows its own failure toast; a rejection only ends the busy state. */
  onSubmit: (values: LoginValues) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginFormSchema),
    mode: "onChange",
    defaultValues: { email: defaultEmail, password: "" },
  });

  const submit = handleSubmit(async (values) => {
    await onSubmit(values).catch(() => undefined);
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label={AUTH_TEXT.signInTab}>
      <FormField
        label={AUTH_TEXT.emailLabel}
        type="email"
        autoComplete="email"
        inputMode="email"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- this screen is the form: focus starts in its first empty field
        autoFocus={!defaultEmail}
        error={errors.email?.message}
        {...register("email", { onChange: (e: { target: { value: string } }) => onEmailChange?.(e.target.value) })}
      />
      <FormField
        label={AUTH_TEXT.passwordLabel}
        type="password"
        autoComplete="current-password"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- this screen is the form: focus starts in its first empty field
        autoFocus={Boolean(defaultEmail)}
        error={errors.password?.message}
        {...register("password")}
      />
      <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={AUTH_TEXT.signingIn}>
        {AUTH_TEXT.signInButton}
      </SubmitButton>
    </form>
  );
}
