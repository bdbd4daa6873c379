import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema";
import type { MailPort, OutgoingMail } from "./port";

/** Local mail: every message lands in the outbox table, listed by the local mailbox page. */
export class LocalMail implements MailPort {
  readonly kind = "local" as const;
  constructor(private db: Database) {}

  /** The insert statement, so callers can put it in the same batch as the change it reports. */
  insert(mail: OutgoingMail) {
    return this.db.insert(mailOutbox).values({
      toEmail: mail.to.toLowerCase(),
      subject: mail.subject,
      bodyText: mail.text,
      link: mail.link ?? null,
      kind: mail.kind,
    });
  }

  async send(mail: OutgoingMail) {
    await this.insert(mail);
  }
}
