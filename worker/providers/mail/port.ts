export type OutgoingMail = { to: string; subject: string; text: string; link?: string; kind: string };

export interface MailPort {
  readonly kind: "local" | "supabase";
  send(mail: OutgoingMail): Promise<void>;
}
