CREATE TABLE `appointment_begin_all_daily` (
	`day` text PRIMARY KEY NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`scheduled` integer DEFAULT 0 NOT NULL,
	`visited` integer DEFAULT 0 NOT NULL,
	`sold` integer DEFAULT 0 NOT NULL,
	`no_show` integer DEFAULT 0 NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`virtual_scheduled` integer DEFAULT 0 NOT NULL,
	`virtual_no_call` integer DEFAULT 0 NOT NULL,
	`virtual_no_answer` integer DEFAULT 0 NOT NULL,
	`virtual_answered` integer DEFAULT 0 NOT NULL,
	`virtual_purchased` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `appointment_booked_all_daily` (
	`day` text PRIMARY KEY NOT NULL,
	`booked` integer DEFAULT 0 NOT NULL,
	`booked_future` integer DEFAULT 0 NOT NULL,
	`inbound_booked` integer DEFAULT 0 NOT NULL,
	`outbound_booked` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `appointment_upcoming_all_daily` (
	`day` text NOT NULL,
	`begin_day` text NOT NULL,
	`scheduled` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `begin_day`)
);
--> statement-breakpoint
CREATE INDEX `appointment_upcoming_all_daily_begin_idx` ON `appointment_upcoming_all_daily` (`begin_day`,`day`,`scheduled`);--> statement-breakpoint
-- Hand-written: days rolled up before these tables existed have no rows in them, so the appointments'
-- coverage starts again; their counts read live (slower, never wrong) until the next roll-up run.
DELETE FROM `rollup_state` WHERE `source` = 'appointments';
