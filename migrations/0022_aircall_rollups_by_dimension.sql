-- Hand-written (docs/decisions/055-aircall-rollups-by-dimension.md): every Aircall count reads one
-- roll-up row a day whatever its filters. Each table is keyed by day first (the job rebuilds by day)
-- and has a covering index led by the filters it answers, then the day, so a count seeks its rows.
CREATE TABLE `aircall_all_daily` (
	`day` text NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`store_transfers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `direction`)
);
--> statement-breakpoint
CREATE INDEX `aircall_all_daily_read_idx` ON `aircall_all_daily` (`direction`,`day`,`total`,`answered`,`store_transfers`);--> statement-breakpoint
CREATE TABLE `aircall_user_daily` (
	`day` text NOT NULL,
	`user_name` text DEFAULT '' NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`store_transfers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `user_name`, `direction`)
);
--> statement-breakpoint
CREATE INDEX `aircall_user_daily_read_idx` ON `aircall_user_daily` (`user_name`,`direction`,`day`,`total`,`answered`,`store_transfers`);--> statement-breakpoint
DROP INDEX `aircall_daily_user_idx`;--> statement-breakpoint
CREATE INDEX `aircall_daily_read_idx` ON `aircall_daily` (`user_name`,`number_name`,`direction`,`day`,`total`,`answered`,`store_transfers`);--> statement-breakpoint
CREATE INDEX `aircall_number_daily_read_idx` ON `aircall_number_daily` (`number_name`,`direction`,`day`,`total`,`answered`,`store_transfers`);--> statement-breakpoint
-- The live part of a count reads the day's calls of one direction from an index alone: without a
-- filter by (direction, started_at), with a line by (number_name, direction, started_at), with a
-- user by (user_name, direction, started_at); the last two also serve the option lists' loose
-- scans. The time index holds what the roll-up job reads.
CREATE INDEX `aircall_calls_direction_time_idx` ON `aircall_calls` (`direction`,`started_at`,`number_name`,`user_name`,`answered_at`,`transferred_to_store`);--> statement-breakpoint
DROP INDEX `aircall_calls_number_time_idx`;--> statement-breakpoint
CREATE INDEX `aircall_calls_number_time_idx` ON `aircall_calls` (`number_name`,`direction`,`started_at`,`user_name`,`answered_at`,`transferred_to_store`);--> statement-breakpoint
DROP INDEX `aircall_calls_user_idx`;--> statement-breakpoint
CREATE INDEX `aircall_calls_user_idx` ON `aircall_calls` (`user_name`,`direction`,`started_at`,`number_name`,`answered_at`,`transferred_to_store`);--> statement-breakpoint
DROP INDEX `aircall_calls_time_idx`;--> statement-breakpoint
CREATE INDEX `aircall_calls_time_idx` ON `aircall_calls` (`started_at`,`direction`,`number_name`,`user_name`,`answered_at`,`transferred_to_store`);--> statement-breakpoint
-- Days rolled up before these tables existed have no rows in them, so Aircall's coverage starts
-- again; its counts read live (slower, never wrong) until the next roll-up run.
DELETE FROM `rollup_state` WHERE `source` = 'aircall';
