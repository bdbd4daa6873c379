import type { MailPort, OutgoingMail } from "./port";

/** With Supabase configured, Supabase sends the account mail itself; the product sends none of its own. */
export class SupabaseMail implements MailPort {
  readonly kind = "supabase" as const;
  async send(_mail: OutgoingMail) {}
}
