CREATE TABLE `call_log_hourly` (
	`user_id` text NOT NULL,
	`hour` text NOT NULL,
	`day` text NOT NULL,
	`assistant_id` text DEFAULT '' NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`connected` integer DEFAULT 0 NOT NULL,
	`voicemail` integer DEFAULT 0 NOT NULL,
	`forwarded` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `hour`, `assistant_id`, `direction`)
);
--> statement-breakpoint
CREATE TABLE `call_log_user_hourly` (
	`user_id` text NOT NULL,
	`hour` text NOT NULL,
	`day` text NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`connected` integer DEFAULT 0 NOT NULL,
	`voicemail` integer DEFAULT 0 NOT NULL,
	`forwarded` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `hour`, `direction`)
);
--> statement-breakpoint
CREATE TABLE `rollup_hour_state` (
	`source` text PRIMARY KEY NOT NULL,
	`from_at` text NOT NULL,
	`through_at` text NOT NULL
);
