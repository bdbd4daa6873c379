CREATE TABLE `aircall_daily` (
	`day` text NOT NULL,
	`number_name` text DEFAULT '' NOT NULL,
	`user_name` text DEFAULT '' NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`store_transfers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `number_name`, `user_name`, `direction`)
);
--> statement-breakpoint
CREATE INDEX `aircall_daily_user_idx` ON `aircall_daily` (`user_name`,`day`);--> statement-breakpoint
CREATE TABLE `aircall_number_daily` (
	`day` text NOT NULL,
	`number_name` text DEFAULT '' NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`store_transfers` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `number_name`, `direction`)
);
--> statement-breakpoint
CREATE TABLE `appointment_begin_daily` (
	`day` text NOT NULL,
	`store` text NOT NULL,
	`booked_by` text DEFAULT '' NOT NULL,
	`appointment_type` text NOT NULL,
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
	`virtual_purchased` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`, `booked_by`, `appointment_type`)
);
--> statement-breakpoint
CREATE INDEX `appointment_begin_daily_store_idx` ON `appointment_begin_daily` (`store`,`day`);--> statement-breakpoint
CREATE INDEX `appointment_begin_daily_booked_by_idx` ON `appointment_begin_daily` (`booked_by`,`day`);--> statement-breakpoint
CREATE INDEX `appointment_begin_daily_type_idx` ON `appointment_begin_daily` (`appointment_type`,`day`);--> statement-breakpoint
CREATE TABLE `appointment_begin_store_daily` (
	`day` text NOT NULL,
	`store` text NOT NULL,
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
	`virtual_purchased` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`)
);
--> statement-breakpoint
CREATE INDEX `appointment_begin_store_daily_store_idx` ON `appointment_begin_store_daily` (`store`,`day`);--> statement-breakpoint
CREATE TABLE `appointment_booked_daily` (
	`day` text NOT NULL,
	`store` text NOT NULL,
	`booked_by` text DEFAULT '' NOT NULL,
	`appointment_type` text NOT NULL,
	`booked` integer DEFAULT 0 NOT NULL,
	`booked_future` integer DEFAULT 0 NOT NULL,
	`inbound_booked` integer DEFAULT 0 NOT NULL,
	`outbound_booked` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`, `booked_by`, `appointment_type`)
);
--> statement-breakpoint
CREATE INDEX `appointment_booked_daily_store_idx` ON `appointment_booked_daily` (`store`,`day`);--> statement-breakpoint
CREATE INDEX `appointment_booked_daily_booked_by_idx` ON `appointment_booked_daily` (`booked_by`,`day`);--> statement-breakpoint
CREATE INDEX `appointment_booked_daily_type_idx` ON `appointment_booked_daily` (`appointment_type`,`day`);--> statement-breakpoint
CREATE TABLE `appointment_booked_store_daily` (
	`day` text NOT NULL,
	`store` text NOT NULL,
	`booked` integer DEFAULT 0 NOT NULL,
	`booked_future` integer DEFAULT 0 NOT NULL,
	`inbound_booked` integer DEFAULT 0 NOT NULL,
	`outbound_booked` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`)
);
--> statement-breakpoint
CREATE INDEX `appointment_booked_store_daily_store_idx` ON `appointment_booked_store_daily` (`store`,`day`);--> statement-breakpoint
CREATE TABLE `call_log_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`assistant_id` text DEFAULT '' NOT NULL,
	`direction` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`connected` integer DEFAULT 0 NOT NULL,
	`voicemail` integer DEFAULT 0 NOT NULL,
	`forwarded` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `assistant_id`, `direction`)
);
--> statement-breakpoint
CREATE TABLE `lead_daily` (
	`day` text NOT NULL,
	`store` text DEFAULT '' NOT NULL,
	`submissions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `store`)
);
--> statement-breakpoint
CREATE TABLE `rollup_state` (
	`source` text PRIMARY KEY NOT NULL,
	`from_day` text NOT NULL,
	`until_day` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `aircall_calls_user_idx` ON `aircall_calls` (`user_name`);--> statement-breakpoint
CREATE INDEX `appointments_scheduled_begin_idx` ON `appointments` (`begin_utc`) WHERE "appointments"."status" = 'Scheduled';--> statement-breakpoint
CREATE INDEX `appointments_booked_by_idx` ON `appointments` (`booked_by`);--> statement-breakpoint
CREATE INDEX `appointments_type_idx` ON `appointments` (`appointment_type`);