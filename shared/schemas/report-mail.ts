// GET and PUT /api/report-mail: the signed-in user's "daily report by email" switch (decision 060).
import { z } from "zod";

export const reportMailBody = z.strictObject({ subscribed: z.boolean() });
export type ReportMailBody = z.infer<typeof reportMailBody>;

/** The switch and the address the mail goes to (the account's email). */
export const reportMailSetting = z.object({ subscribed: z.boolean(), email: z.string() });
export type ReportMailSetting = z.infer<typeof reportMailSetting>;
