// A new password and its confirmation, wherever a password is set (registration, recovery, a change
// in Settings, activation, the first password after payment): the one password policy's rules under
// the first field (shared/schemas/password.ts checks them), both marked for the browser's password
// manager as a new password. Each form keeps its own labels, validation and error display.
import type { ComponentProps } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { FormField } from "@web/components/ui/form-field";

type InputProps = Omit<ComponentProps<"input">, "type" | "autoComplete">;

export function NewPasswordFields({
  labels = { password: AUTH_TEXT.newPasswordLabel, confirm: AUTH_TEXT.confirmNewPasswordLabel },
  password,
  confirm,
  errors = {},
  autoFocus = false,
}: {
  labels?: { password: string; confirm: string };
  /** The props of each input: a form library's registration, or a value and its onChange. */
  password: InputProps;
  confirm: InputProps;
  errors?: { password?: string; confirm?: string };
  /** Only where the screen is the form: focus starts in the new password. */
  autoFocus?: boolean;
}) {
  return (
    <>
      <FormField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- passed on from the one screen that is this form (the recovery page)
        autoFocus={autoFocus}
        hint={AUTH_TEXT.newPasswordRules}
        error={errors.password}
        {...password}
      />
      <FormField label={labels.confirm} type="password" autoComplete="new-password" error={errors.confirm} {...confirm} />
    </>
  );
}
