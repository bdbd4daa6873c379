-- The daily report by email (decision 060). One row per user who ever turned the mail on or off;
-- `origin` is the app's address the switch was used from, for the mail's links when PUBLIC_URL is unset.
CREATE TABLE `report_mail_subscriptions` (
	`user_id` text PRIMARY KEY NOT NULL,
	`subscribed` integer DEFAULT false NOT NULL,
	`changed_at` text NOT NULL,
	`origin` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
-- The nightly read of the subscribers walks only the subscribed rows.
CREATE INDEX `report_mail_subscriptions_on_idx` ON `report_mail_subscriptions` (`user_id`) WHERE `subscribed` = 1;
--> statement-breakpoint
-- One row per (user, report day): the claim a run takes before it sends, so a second or overlapping
-- run finds it taken and sends nothing. `status` is sending, sent or failed; a failed (or long
-- stale) claim may be taken again by a rerun within a day of the first, with the same idempotency key.
CREATE TABLE `report_mail_deliveries` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`status` text NOT NULL,
	`claim_id` text NOT NULL,
	`first_claimed_at` text NOT NULL,
	`claimed_at` text NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`sent_at` text,
	`error` text,
	PRIMARY KEY(`user_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `report_mail_deliveries_day_idx` ON `report_mail_deliveries` (`day`);
--> statement-breakpoint
-- The unsubscribe links' tokens: only a SHA-256 hash of each (the token itself is in the mail alone).
-- Every attempt of a delivery adds its own, so whichever attempt reached the inbox, its link works.
CREATE TABLE `report_mail_unsubscribe_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `report_mail_unsubscribe_tokens_user_idx` ON `report_mail_unsubscribe_tokens` (`user_id`);
--> statement-breakpoint
CREATE INDEX `report_mail_unsubscribe_tokens_day_idx` ON `report_mail_unsubscribe_tokens` (`day`);
--> statement-breakpoint
-- The mail port's optional parts, kept by the local mailbox: the HTML version, extra headers (JSON)
-- and the sender's idempotency key (a second message with the same key is not stored).
ALTER TABLE `mail_outbox` ADD `body_html` text;
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;
--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `idempotency_key` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_idempotency_key_uq` ON `mail_outbox` (`idempotency_key`) WHERE `idempotency_key` IS NOT NULL;
