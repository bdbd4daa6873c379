// "I've Confirmed" (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): whether the address just registered in this tab has been confirmed,
// asked with the account id its sign-up answered with.
import type { EmailConfirmedResponse } from "@shared/schemas/auth";
import { apiJson } from "@web/lib/api";

/** True or false as the server answers; rejects when it could not be asked. */
export async function isEmailConfirmed(email: string, userId: string): Promise<boolean> {
  const answer: Partial<EmailConfirmedResponse> = await apiJson("POST", "/api/admin/public/email-confirmed", { email, userId });
  return answer.confirmed === true;
}
