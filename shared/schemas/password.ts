// The one password policy: every password that is set (registration, activation, recovery, a change,
// the first password after payment) follows the password-creation rules of docs/product/errors-and-texts.md#validation-messages, on every form and on
// the server alike, and a refusal names the rule broken with spec 2's messages. Signing in only checks
// spec 1's 6 characters: it sets nothing.
import { z } from "zod";
import { ACTIVATION_MIN_PASSWORD } from "../constants.ts";

export const NEW_PASSWORD_TEXT = {
  bothRequired: "Both password fields are required",
  mismatch: "Passwords do not match",
  tooShort: "Password must be at least 8 characters long",
  characters: "Password must contain at least 1 uppercase letter and 1 number",
} as const;

/** The first rule a new password breaks, as GoTrue's weak_password reason and spec 2's message; null when it is fine. */
export function newPasswordProblem(password: string): { reason: "length" | "characters"; message: string } | null {
  if (password.length < ACTIVATION_MIN_PASSWORD) return { reason: "length", message: NEW_PASSWORD_TEXT.tooShort };
  if (!/[A-Z]/.test(password) || !/\d/.test(password)) return { reason: "characters", message: NEW_PASSWORD_TEXT.characters };
  return null;
}

const newPasswordFields = {
  password: z.string().max(128, "Password is too long"),
  confirmPassword: z.string().max(128, "Password is too long"),
};

/** Both new-password fields, equal, and the rules above (shown on the first field). */
function checkNewPassword(v: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  if (!v.password || !v.confirmPassword) {
    ctx.addIssue({ code: "custom", message: NEW_PASSWORD_TEXT.bothRequired, path: [v.password ? "confirmPassword" : "password"] });
    return;
  }
  if (v.password !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", message: NEW_PASSWORD_TEXT.mismatch, path: ["confirmPassword"] });
    return;
  }
  const problem = newPasswordProblem(v.password);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: ["password"] });
}

/** The set-new-password form (recovery, activation). */
export const newPasswordFormSchema = z.object(newPasswordFields).superRefine(checkNewPassword);
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

export const CURRENT_PASSWORD_REQUIRED = "Enter your current password";

/** The change-password form of Settings: the current password, then the new one as above. */
export const changePasswordFormSchema = z
  .object({ currentPassword: z.string().min(1, CURRENT_PASSWORD_REQUIRED).max(128, "Password is too long"), ...newPasswordFields })
  .superRefine(checkNewPassword);
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;
