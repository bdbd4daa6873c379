CREATE TABLE `deleted_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`deleted_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `deleted_accounts_expires_idx` ON `deleted_accounts` (`expires_at`);