CREATE TABLE `account_activations` (
	`user_id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`checkout_session_id` text,
	`password_set_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_activations_email_uq` ON `account_activations` (lower("email"));--> statement-breakpoint
CREATE INDEX `account_activations_session_idx` ON `account_activations` (`checkout_session_id`);--> statement-breakpoint
CREATE TABLE `billing_local_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billing_local_objects_kind_idx` ON `billing_local_objects` (`kind`,`created_at`);