CREATE TABLE `auth_sign_in_failures` (
	`email` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_failed_at` integer NOT NULL,
	`locked_until` integer
);
--> statement-breakpoint
ALTER TABLE `auth_one_time_tokens` ADD `new_email` text;--> statement-breakpoint
ALTER TABLE `auth_sessions` ADD `method` text DEFAULT 'password' NOT NULL;