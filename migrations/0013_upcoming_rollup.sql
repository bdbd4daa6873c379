CREATE TABLE `appointment_upcoming_daily` (
	`day` text NOT NULL,
	`store` text NOT NULL,
	`begin_day` text NOT NULL,
	`scheduled` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`, `begin_day`)
);
--> statement-breakpoint
CREATE INDEX `appointment_upcoming_daily_begin_idx` ON `appointment_upcoming_daily` (`begin_day`,`day`,`store`,`scheduled`);--> statement-breakpoint
CREATE INDEX `appointments_scheduled_booked_idx` ON `appointments` (`booked_at`,`begin_utc`,`store`) WHERE "appointments"."status" = 'Scheduled';--> statement-breakpoint
-- Hand-written: days rolled up before this table existed have no rows in it, so the appointments'
-- coverage starts again; their counts read live (slower, never wrong) until the next roll-up run.
DELETE FROM `rollup_state` WHERE `source` = 'appointments';
