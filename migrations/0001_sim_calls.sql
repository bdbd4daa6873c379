CREATE TABLE `sim_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`assistant_id` text NOT NULL,
	`call` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sim_calls_assistant_time_idx` ON `sim_calls` (`assistant_id`,`created_at`);