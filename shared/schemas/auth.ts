// Auth and account contracts: the forms' rules (docs/product/errors-and-texts.md#validation-messages) and the public account calls.
import { z } from "zod";
import { AUTH_LIMITS } from "../constants";
import { VALIDATION } from "../messages";
import { newPasswordProblem } from "./password";

/**
 * A password being set (registration): the one password policy (newPasswordProblem: 8+ characters
 * with an uppercase letter and a number, the texts of docs/product/errors-and-texts.md#validation-messages), which the server applies to every
 * password it sets. Signing in keeps spec 1's 6-character check: it sets nothing.
 */
const newPassword = z
  .string()
  .max(128, "Password is too long")
  .superRefine((password, ctx) => {
    const problem = newPasswordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message });
  });

export const emailSchema = z.string().trim().max(254, "Email is too long").pipe(z.email(VALIDATION.invalidEmail));

export const loginFormSchema = z.object({
  email: z.email(VALIDATION.invalidEmail),
  password: z.string().min(AUTH_LIMITS.minPassword, VALIDATION.passwordMin),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

export const registerFormSchema = z
  .object({
    email: z.email(VALIDATION.invalidEmail),
    username: z.string().min(AUTH_LIMITS.minUsername, VALIDATION.usernameMin),
    companyName: z.string().min(AUTH_LIMITS.minCompany, VALIDATION.companyRequired),
    password: newPassword,
    confirmPassword: newPassword,
  })
  .refine((v) => v.password === v.confirmPassword, { message: VALIDATION.passwordsMismatch, path: ["confirmPassword"] });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const planEmailSchema = z.object({ email: z.email(VALIDATION.invalidEmail) });

/** POST /api/admin/public/user-exists */
export const userExistsBody = z.object({ email: emailSchema });
export const userExistsResponse = z.object({ success: z.boolean(), exists: z.boolean() });
export type UserExistsResponse = z.infer<typeof userExistsResponse>;

/**
 * POST /api/admin/public/email-confirmed ("I've Confirmed", docs/product/dashboard-and-counts.md#sections-and-who-sees-them): the address just registered
 * and the account id its sign-up answered with, which is the proof that asks.
 */
export const emailConfirmedBody = z.object({ email: emailSchema, userId: z.uuid("Invalid account id") });
export const emailConfirmedResponse = z.object({ success: z.boolean(), confirmed: z.boolean() });
export type EmailConfirmedResponse = z.infer<typeof emailConfirmedResponse>;

/** POST /api/admin/public/update-user-profile */
export const updateUserProfileBody = z.object({
  email: emailSchema,
  username: z.string().trim().min(1, "Nick name is required").max(100, "Nick name is too long"),
  company: z.string().trim().max(200, "Company name is too long").optional(),
  newEmail: emailSchema.optional(),
});
export type UpdateUserProfileBody = z.infer<typeof updateUserProfileBody>;

/** The current user as the client sees it (docs/product/README.md#records); flags come from server-side state. */
export const currentUserView = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  company: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  is_admin: z.boolean(),
  shopwindows_info: z.boolean(),
  call_app: z.boolean(),
});
export type CurrentUserView = z.infer<typeof currentUserView>;

/** Local identity service request bodies (GoTrue-compatible subset). */
// Passwords too short for the rules answer 422 weak_password (as GoTrue), not a schema 400.
export const signupBody = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required").max(128, "Password is too long"),
  data: z.record(z.string(), z.unknown()).optional().default({}),
});
export const passwordGrantBody = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required").max(128, "Password is too long"),
});
export const refreshGrantBody = z.object({ refresh_token: z.string().min(10, "refresh_token is required").max(200) });
export const resendBody = z.object({ type: z.enum(["signup"]), email: emailSchema });
/** POST /auth/v1/recover (supabase-js resetPasswordForEmail; its PKCE and captcha fields are accepted and unused). */
export const recoverBody = z.object({
  email: emailSchema,
  code_challenge: z.string().max(200).nullish(),
  code_challenge_method: z.string().max(20).nullish(),
  gotrue_meta_security: z.object({ captcha_token: z.string().max(4000).optional() }).nullish(),
});
/** The kinds of mailed one-time link the local identity service spends. */
export const LINK_TYPES = ["signup", "invite", "recovery", "email_change"] as const;
/** POST /auth/v1/verify (supabase-js verifyOtp with a token hash): spends a mailed link. */
export const verifyBody = z.object({
  type: z.enum(LINK_TYPES),
  token_hash: z.string().min(1, "token_hash is required").max(200, "token_hash is too long"),
  gotrue_meta_security: z.object({ captcha_token: z.string().max(4000).optional() }).nullish(),
});

/**
 * PUT /auth/v1/user. supabase-js 2.119 sends the attributes it is given unchanged, and its
 * UserAttributes type names the current password `current_password`.
 */
export const updateUserBody = z.object({
  password: z.string().min(1, "Password is required").max(128, "Password is too long").optional(),
  current_password: z.string().max(128, "Password is too long").optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
