// The extra addresses of an account's alert rules (decision 073): one row per (account, address),
// pending until the address's owner confirms through the mailed link, then confirmed until it
// unsubscribes (one click, for every rule of the account). The confirmation mail carries our words
// only and is capped per account and per address a day; the cap is counted by the INSERT that claims
// the mail (a row of alert_mail_log), so two requests cannot both pass it.
import { ALERT_CONFIRM_CAPS, ALERT_CONFIRM_DAYS, ALERT_CONFIRM_PATH, type AlertRecipientState } from "@shared/alerts";
import { ALERT_MAIL_TEXT } from "@shared/messages";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import { randomToken, sha256 } from "../../lib/crypto";
import { log } from "../../lib/log";
import type { MailPort } from "../../providers";

/** A confirmation or unsubscribe token's shape: 32 random bytes, base64url (43 characters). */
export const RECIPIENT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The UTC day the caps count in. */
export const mailDay = (now: Date) => now.toISOString().slice(0, 10);

export type RecipientRow = { email: string; status: AlertRecipientState; unsubscribe_id: string };

/** The account's extra addresses and their states. */
export const recipientsStatement = (d1: D1Database, userId: string) =>
  d1.prepare("SELECT email, status, unsubscribe_id FROM alert_mail_recipients WHERE user_id = ? ORDER BY email").bind(userId);

/** A row for each address the account has not had yet (pending, never mailed), for the save's batch. */
export function addRecipientStatements(d1: D1Database, userId: string, emails: string[], now: Date): D1PreparedStatement[] {
  return emails.map((email) =>
    d1
      .prepare("INSERT INTO alert_mail_recipients (user_id, email, status, unsubscribe_id, changed_at) VALUES (?, ?, 'pending', ?, ?) ON CONFLICT (user_id, email) DO NOTHING")
      .bind(userId, email, randomToken(), now.toISOString()),
  );
}

export type ConfirmDeps = { db: Database; mail: MailPort; publicUrl: string };

/** One confirmation to send: its claim's id in the day's log and its new token (only the hash is stored). */
export type ConfirmationAsk = { email: string; ref: string; token: string; tokenHash: string };

export async function confirmationAsk(email: string): Promise<ConfirmationAsk> {
  const token = randomToken();
  return { email, ref: crypto.randomUUID(), token, tokenHash: await sha256(token) };
}

/**
 * The claim of a confirmation mail and its new token, for a batch of the directory: the claim (a row
 * of the day's log) takes only where the address is pending (neither confirmed
 * nor unsubscribed: an unsubscribe is final for the account) and, without `again`, was never mailed one, and the day's caps per account and per address are not
 * reached, counted in its own condition; the token is stored only where the claim took. That a rule
 * of the account names the address is the caller's to know: the rules are on the account's shard
 * (a save asks for the addresses it just saved; a resend checks the shard beside this batch).
 */
export function confirmationStatements(d1: D1Database, userId: string, ask: ConfirmationAsk, now: Date, again: boolean): [D1PreparedStatement, D1PreparedStatement] {
  const day = mailDay(now);
  return [
    d1
      .prepare(
        "INSERT INTO alert_mail_log (user_id, email, day, kind, ref) SELECT ?1, ?2, ?3, 'confirm', ?4 " +
          `WHERE EXISTS (SELECT 1 FROM alert_mail_recipients WHERE user_id = ?1 AND email = ?2 AND status = 'pending'${again ? "" : " AND confirm_sent_at IS NULL"}) ` +
          "AND (SELECT count(*) FROM alert_mail_log WHERE user_id = ?1 AND day = ?3 AND kind = 'confirm') < ?5 " +
          "AND (SELECT count(*) FROM alert_mail_log WHERE email = ?2 AND day = ?3 AND kind = 'confirm') < ?6 RETURNING id",
      )
      .bind(userId, ask.email, day, ask.ref, ALERT_CONFIRM_CAPS.perAccountPerDay, ALERT_CONFIRM_CAPS.perAddressPerDay),
    d1
      .prepare(
        "UPDATE alert_mail_recipients SET confirm_token_hash = ?, confirm_sent_at = ? WHERE user_id = ? AND email = ? " +
          "AND EXISTS (SELECT 1 FROM alert_mail_log WHERE kind = 'confirm' AND ref = ? AND email = ?)",
      )
      .bind(ask.tokenHash, now.toISOString(), userId, ask.email, ask.ref, ask.email),
  ];
}

/** Sends a claimed confirmation: our words and the link only, nothing of the account's. False when the send failed. */
export async function sendConfirmation(deps: ConfirmDeps, ask: ConfirmationAsk): Promise<boolean> {
  const url = `${deps.publicUrl.replace(/\/+$/, "")}${ALERT_CONFIRM_PATH}?token=${ask.token}`;
  try {
    await deps.mail.send({
      to: ask.email,
      subject: ALERT_MAIL_TEXT.confirmSubject,
      text: ALERT_MAIL_TEXT.confirmMailText(url, ALERT_CONFIRM_DAYS),
      link: url,
      kind: "alert_confirm",
      idempotencyKey: `alert-confirm/${ask.ref}`,
    });
    return true;
  } catch (err) {
    log(null, "error", "alert confirmation mail failed", { error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/**
 * Mails a confirmation to each of the addresses a save named that was never mailed one, within the
 * day's caps: the claims in one batch, then the mails whose claim took. Answers the addresses mailed.
 */
export async function requestConfirmations(deps: ConfirmDeps, userId: string, emails: string[], now: Date, again = false): Promise<string[]> {
  if (emails.length === 0) return [];
  const d1 = d1Of(deps.db);
  const asks = await Promise.all(emails.map(confirmationAsk));
  const results = await d1.batch(asks.flatMap((a) => confirmationStatements(d1, userId, a, now, again)));
  const sent: string[] = [];
  for (const [i, a] of asks.entries()) {
    if ((results[i * 2].results ?? []).length > 0 && (await sendConfirmation(deps, a))) sent.push(a.email);
  }
  return sent;
}

const confirmCutoff = (now: Date) => new Date(now.getTime() - ALERT_CONFIRM_DAYS * 86_400_000).toISOString();

/** Whether a confirmation token is one we mailed and still works (the GET page shows its button only then). */
export async function confirmTokenKnown(db: Database, token: string, now: Date): Promise<boolean> {
  if (!RECIPIENT_TOKEN.test(token)) return false;
  const row = await d1Of(db)
    .prepare("SELECT 1 AS ok FROM alert_mail_recipients WHERE confirm_token_hash = ? AND confirm_sent_at >= ?")
    .bind(await sha256(token), confirmCutoff(now))
    .first();
  return row !== null;
}

/** Confirms the address a token was mailed to, for every rule of its account; the token is spent. */
export async function confirmByToken(db: Database, token: string, now: Date): Promise<boolean> {
  if (!RECIPIENT_TOKEN.test(token)) return false;
  const row = await d1Of(db)
    .prepare(
      "UPDATE alert_mail_recipients SET status = 'confirmed', confirm_token_hash = NULL, changed_at = ? WHERE confirm_token_hash = ? AND confirm_sent_at >= ? RETURNING email",
    )
    .bind(now.toISOString(), await sha256(token), confirmCutoff(now))
    .first();
  return row !== null;
}

/** Whether an unsubscribe id names an address (the GET page shows its button only then). */
export async function unsubscribeIdKnown(db: Database, id: string): Promise<boolean> {
  if (!RECIPIENT_TOKEN.test(id)) return false;
  return (await d1Of(db).prepare("SELECT 1 AS ok FROM alert_mail_recipients WHERE unsubscribe_id = ?").bind(id).first()) !== null;
}

/** Unsubscribes the address from every alert of its account (a pending confirmation link stops working too). */
export async function unsubscribeById(db: Database, id: string, now: Date): Promise<boolean> {
  if (!RECIPIENT_TOKEN.test(id)) return false;
  const row = await d1Of(db)
    .prepare("UPDATE alert_mail_recipients SET status = 'unsubscribed', confirm_token_hash = NULL, changed_at = ? WHERE unsubscribe_id = ? RETURNING email")
    .bind(now.toISOString(), id)
    .first();
  return row !== null;
}

/** Deletes the caps' log of days before yesterday (the caps count today only). */
export const pruneMailLogStatement = (d1: D1Database, now: Date) =>
  d1.prepare("DELETE FROM alert_mail_log WHERE day < ?").bind(mailDay(new Date(now.getTime() - 86_400_000)));
