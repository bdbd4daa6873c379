// Registration with a company name or the person's own full name (docs/product/errors-and-texts.md#validation-messages).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { AUTH_TEXT } from "@shared/messages";
import { registerFormSchema, type RegisterForm as RegisterValues } from "@shared/schemas/auth";
import { NewPasswordFields } from "@web/components/account/new-password-fields";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";

export function RegisterForm({
  defaultEmail = "",
  onSubmit,
}: {
  defaultEmail?: string;
  /** Shows its own failure toast; a rejection only ends the busy state. */
  onSubmit: (values: RegisterValues) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    trigger,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerFormSchema),
    mode: "onChange",
    defaultValues: { email: defaultEmail, username: "", companyName: "", password: "", confirmPassword: "" },
  });

  const submit = handleSubmit(async (values) => {
    await onSubmit(values).catch(() => undefined);
  });

  // Editing the password re-checks a confirmation already typed, so a mismatch shows at once.
  const password = register("password", {
    onChange: () => {
      if (getFieldState("confirmPassword").isDirty) void trigger("confirmPassword");
    },
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label={AUTH_TEXT.registerTab}>
      <FormField
        label={AUTH_TEXT.emailLabel}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register("email")}
      />
      <FormField label={AUTH_TEXT.usernameLabel} autoComplete="username" error={errors.username?.message} {...register("username")} />
      <FormField
        label={AUTH_TEXT.companyLabel}
        autoComplete="organization"
        error={errors.companyName?.message}
        {...register("companyName")}
      />
      <NewPasswordFields
        labels={{ password: AUTH_TEXT.passwordLabel, confirm: AUTH_TEXT.confirmPasswordLabel }}
        password={password}
        confirm={register("confirmPassword")}
        errors={{ password: errors.password?.message, confirm: errors.confirmPassword?.message }}
      />
      <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={AUTH_TEXT.creatingAccount}>
        {AUTH_TEXT.createAccount}
      </SubmitButton>
    </form>
  );
}
