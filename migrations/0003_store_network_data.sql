CREATE TABLE `rollup_dirty_days` (
	`source` text NOT NULL,
	`day` text NOT NULL,
	`marked_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`source`, `day`)
);
--> statement-breakpoint
ALTER TABLE `aircall_calls` ADD `transferred_to` text;--> statement-breakpoint
ALTER TABLE `aircall_calls` ADD `last_event_at` text;--> statement-breakpoint
-- leads.external_id: nullable first (SQLite cannot add a NOT NULL column without a default), every
-- existing lead given a unique id, then the table rebuilt with the column required (drizzle-kit's rebuild).
ALTER TABLE `leads` ADD `external_id` text;--> statement-breakpoint
UPDATE `leads` SET `external_id` = 'backfill-' || `id` WHERE `external_id` IS NULL;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`external_id` text NOT NULL,
	`store` text,
	`email` text,
	`phone` text,
	`first_name` text,
	`last_name` text,
	`company` text,
	`lead_source` text NOT NULL,
	`lead_status` text DEFAULT 'new' NOT NULL,
	`interest_level` integer DEFAULT 4 NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`submitted_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_leads`("id", "external_id", "store", "email", "phone", "first_name", "last_name", "company", "lead_source", "lead_status", "interest_level", "metadata", "submitted_at", "created_at") SELECT "id", "external_id", "store", "email", "phone", "first_name", "last_name", "company", "lead_source", "lead_status", "interest_level", "metadata", "submitted_at", "created_at" FROM `leads`;--> statement-breakpoint
DROP TABLE `leads`;--> statement-breakpoint
ALTER TABLE `__new_leads` RENAME TO `leads`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `leads_external_uq` ON `leads` (`external_id`);--> statement-breakpoint
CREATE INDEX `leads_submitted_idx` ON `leads` (`submitted_at`);--> statement-breakpoint
CREATE INDEX `leads_store_submitted_idx` ON `leads` (`store`,`submitted_at`);

