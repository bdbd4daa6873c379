CREATE TABLE `call_log_user_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`connected` integer DEFAULT 0 NOT NULL,
	`voicemail` integer DEFAULT 0 NOT NULL,
	`forwarded` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `direction`)
);--> statement-breakpoint
-- Hand-written: days rolled up before this table existed have no rows in it, so the call logs'
-- coverage starts again; their counts read live (slower, never wrong) until the next roll-up run.
DELETE FROM `rollup_state` WHERE `source` = 'call_logs';
