// /settings (docs/product/screens-and-routes.md#route-table): user section (nick name, email), company section (name), password (change, or
// a recovery link when it is forgotten), subscription section, API access (docs/product/api-access.md).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { SETTINGS_TEXT } from "@shared/messages";
import { emailSchema, updateUserProfileBody, type CurrentUserView, type UpdateUserProfileBody } from "@shared/schemas/auth";
import { PageHeader } from "@web/components/layout/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useUpdateProfile } from "../api/update-profile";
import { ApiAccessSection } from "./api-access-section";
import { PasswordSection } from "./password-section";
import { ReportMailSection } from "./report-mail-section";
import { SubscriptionSection } from "./subscription-section";

const settingsFormSchema = z.object({
  username: updateUserProfileBody.shape.username,
  email: emailSchema,
  company: z.string().trim().max(200, "Company name is too long"),
});
type SettingsValues = z.infer<typeof settingsFormSchema>;

function valuesOf(user: CurrentUserView): SettingsValues {
  return { username: user.username ?? "", email: user.email, company: user.company ?? "" };
}

function SettingsForm({ user }: { user: CurrentUserView }) {
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors, isDirty },
  } = useForm<SettingsValues>({
    resolver: zodResolver(settingsFormSchema),
    mode: "onChange",
    values: valuesOf(user),
  });

  const submit = handleSubmit(async ({ username, email, company }) => {
    const body: UpdateUserProfileBody = { email: user.email, username, company };
    if (email.toLowerCase() !== user.email.toLowerCase()) body.newEmail = email;
    try {
      const saved = await update.mutateAsync(body);
      if (saved.emailChangeSent && body.newEmail) {
        // The email changes only once the link mailed to the new address is opened.
        toast({ title: SETTINGS_TEXT.emailChangeSentTitle, description: SETTINGS_TEXT.emailChangeSent(body.newEmail) });
        resetField("email", { defaultValue: user.email });
      } else {
        toast({ title: SETTINGS_TEXT.savedTitle, description: SETTINGS_TEXT.saved });
      }
    } catch (err) {
      toast({ variant: "destructive", title: SETTINGS_TEXT.updateFailed, description: errorMessage(err, SETTINGS_TEXT.updateFailed) });
    }
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{SETTINGS_TEXT.userSection}</CardTitle>
          <CardDescription>{SETTINGS_TEXT.userSectionText}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <FormField label={SETTINGS_TEXT.nickNameLabel} autoComplete="nickname" error={errors.username?.message} {...register("username")} />
          <FormField
            label={SETTINGS_TEXT.emailLabel}
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register("email")}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{SETTINGS_TEXT.companySection}</CardTitle>
          <CardDescription>{SETTINGS_TEXT.companySectionText}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <FormField label={SETTINGS_TEXT.companyLabel} autoComplete="organization" error={errors.company?.message} {...register("company")} />
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <SubmitButton pending={update.isPending} disabled={!isDirty} pendingLabel={SETTINGS_TEXT.saving}>
          {SETTINGS_TEXT.save}
        </SubmitButton>
      </div>
    </form>
  );
}

export function SettingsPage({ user }: { user: CurrentUserView }) {
  return (
    <div className="max-w-3xl">
      <PageHeader title={SETTINGS_TEXT.title} />
      <div className="grid gap-6">
        <SettingsForm user={user} />
        <PasswordSection email={user.email} />
        {/* Who may see the daily report (docs/product/dashboard-and-counts.md#sections-and-who-sees-them) may have it mailed. */}
        {user.shopwindows_info ? <ReportMailSection /> : null}
        <SubscriptionSection email={user.email} />
        <ApiAccessSection email={user.email} />
      </div>
    </div>
  );
}
