-- Alert mail consent (decision 073): the extra addresses' confirmation and unsubscribe per account, and
-- the log the daily caps count. Rules saved with a cooldown under the new floor of 5 minutes are raised to it.
CREATE TABLE `alert_mail_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`ref` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_mail_log_claim_idx` ON `alert_mail_log` (`kind`,`ref`,`email`);
--> statement-breakpoint
CREATE INDEX `alert_mail_log_account_idx` ON `alert_mail_log` (`user_id`,`day`,`kind`);
--> statement-breakpoint
CREATE INDEX `alert_mail_log_email_idx` ON `alert_mail_log` (`email`,`day`,`kind`);
--> statement-breakpoint
CREATE TABLE `alert_mail_recipients` (
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`confirm_token_hash` text,
	`confirm_sent_at` text,
	`unsubscribe_id` text NOT NULL,
	`changed_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `email`),
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_mail_recipients_confirm_idx` ON `alert_mail_recipients` (`confirm_token_hash`);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_mail_recipients_unsubscribe_idx` ON `alert_mail_recipients` (`unsubscribe_id`);
--> statement-breakpoint
UPDATE `alert_rules` SET `cooldown_minutes` = 5 WHERE `cooldown_minutes` < 5;
