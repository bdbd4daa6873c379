import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema";
import type { MailPort, OutgoingMail } from "./port";

/** Local mail: every message lands in the outbox table, listed by the local mailbox page. */
export class LocalMail implements MailPort {
  readonly kind = "local" as const;
  constructor(private db: Database) {}

  /**
   * The insert statement, so callers can put it in the same batch as the change it reports. A mail
   * whose idempotency key is already in the outbox is not stored again, as a vendor would not send it.
   */
  insert(mail: OutgoingMail) {
    return this.db
      .insert(mailOutbox)
      .values({
        toEmail: mail.to.toLowerCase(),
        subject: mail.subject,
        bodyText: mail.text,
        bodyHtml: mail.html ?? null,
        headers: mail.headers ?? null,
        link: mail.link ?? null,
        kind: mail.kind,
        idempotencyKey: mail.idempotencyKey ?? null,
      })
      .onConflictDoNothing();
  }

  async send(mail: OutgoingMail) {
    await this.insert(mail);
  }
}
