CREATE TABLE `rollup_dirty_days` (
	`source` text NOT NULL,
	`day` text NOT NULL,
	PRIMARY KEY(`source`, `day`)
);
--> statement-breakpoint
ALTER TABLE `aircall_calls` ADD `transferred_to` text;--> statement-breakpoint
ALTER TABLE `aircall_calls` ADD `last_event_at` text;