CREATE TABLE `admin_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` text NOT NULL,
	`actor_email` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` text,
	`target_email` text,
	`detail` text DEFAULT '{}' NOT NULL,
	`ip` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `profiles` ADD `flags_updated_at` text;--> statement-breakpoint
CREATE INDEX `profiles_created_idx` ON `profiles` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `profiles_username_idx` ON `profiles` (lower("username"));--> statement-breakpoint
CREATE INDEX `profiles_company_idx` ON `profiles` (lower("company"));--> statement-breakpoint
CREATE INDEX `profiles_admin_idx` ON `profiles` (`is_admin`) WHERE "profiles"."is_admin" = 1;--> statement-breakpoint
-- Hand-written (drizzle-kit has no triggers): the admin audit log is append-only.
CREATE TRIGGER `admin_audit_log_no_update` BEFORE UPDATE ON `admin_audit_log` BEGIN SELECT RAISE(ABORT, 'admin_audit_log is append-only'); END;--> statement-breakpoint
CREATE TRIGGER `admin_audit_log_no_delete` BEFORE DELETE ON `admin_audit_log` BEGIN SELECT RAISE(ABORT, 'admin_audit_log is append-only'); END;
