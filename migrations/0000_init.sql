CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`business_description` text DEFAULT '' NOT NULL,
	`services` text DEFAULT '' NOT NULL,
	`agent_instructions` text DEFAULT '' NOT NULL,
	`pricing_information` text DEFAULT '' NOT NULL,
	`documents` text DEFAULT '' NOT NULL,
	`prompt` text,
	`voice_id` text DEFAULT 'marissa-11labs' NOT NULL,
	`vapi_assistant_id` text,
	`store` text,
	`type` text,
	`twilio_number_id` integer,
	`assigned_phone_number` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`twilio_number_id`) REFERENCES `phone_numbers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `agents_user_idx` ON `agents` (`user_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `agents_user_name_uq` ON `agents` (`user_id`,lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX `agents_assistant_uq` ON `agents` (`vapi_assistant_id`) WHERE "agents"."vapi_assistant_id" is not null;--> statement-breakpoint
CREATE INDEX `agents_twilio_number_idx` ON `agents` (`twilio_number_id`);--> statement-breakpoint
CREATE TABLE `aircall_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`aircall_id` text NOT NULL,
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`answered` integer DEFAULT false NOT NULL,
	`user_name` text,
	`number_name` text,
	`store` text,
	`transferred_to_store` integer DEFAULT false NOT NULL,
	`started_at` text NOT NULL,
	`answered_at` text,
	`ended_at` text,
	`duration` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `aircall_calls_aircall_id_uq` ON `aircall_calls` (`aircall_id`);--> statement-breakpoint
CREATE INDEX `aircall_calls_time_idx` ON `aircall_calls` (`started_at`);--> statement-breakpoint
CREATE INDEX `aircall_calls_number_time_idx` ON `aircall_calls` (`number_name`,`started_at`);--> statement-breakpoint
CREATE TABLE `appointments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`external_id` text NOT NULL,
	`store` text NOT NULL,
	`begin_utc` text NOT NULL,
	`booked_at` text NOT NULL,
	`booked_by` text,
	`appointment_type` text NOT NULL,
	`status` text NOT NULL,
	`is_virtual` integer DEFAULT false NOT NULL,
	`virtual_outcome` text,
	`visited` integer DEFAULT false NOT NULL,
	`sold` integer DEFAULT false NOT NULL,
	`booking_channel` text,
	`customer_name` text,
	`customer_phone` text,
	`won` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_external_uq` ON `appointments` (`external_id`);--> statement-breakpoint
CREATE INDEX `appointments_begin_idx` ON `appointments` (`begin_utc`);--> statement-breakpoint
CREATE INDEX `appointments_store_begin_idx` ON `appointments` (`store`,`begin_utc`);--> statement-breakpoint
CREATE INDEX `appointments_booked_idx` ON `appointments` (`booked_at`);--> statement-breakpoint
CREATE TABLE `auth_one_time_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`redirect_to` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `auth_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_ott_hash_uq` ON `auth_one_time_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_ott_user_idx` ON `auth_one_time_tokens` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `auth_refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`session_id` text NOT NULL,
	`user_id` text NOT NULL,
	`revoked` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `auth_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_refresh_tokens_hash_uq` ON `auth_refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_refresh_tokens_session_idx` ON `auth_refresh_tokens` (`session_id`);--> statement-breakpoint
CREATE TABLE `auth_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `auth_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `auth_sessions_user_idx` ON `auth_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `auth_users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`email_confirmed_at` text,
	`user_metadata` text DEFAULT '{}' NOT NULL,
	`app_metadata` text DEFAULT '{}' NOT NULL,
	`last_sign_in_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_users_email_uq` ON `auth_users` (lower("email"));--> statement-breakpoint
CREATE TABLE `call_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`call_id` text NOT NULL,
	`agent_id` integer,
	`assistant_id` text,
	`store` text,
	`direction` text NOT NULL,
	`phone_number` text,
	`status` text NOT NULL,
	`ended_reason` text,
	`start_time` text NOT NULL,
	`end_time` text,
	`duration` integer DEFAULT 0 NOT NULL,
	`summary` text,
	`transcript` text,
	`recording_url` text,
	`cost` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `call_logs_call_id_uq` ON `call_logs` (`call_id`);--> statement-breakpoint
CREATE INDEX `call_logs_user_time_idx` ON `call_logs` (`user_id`,`start_time`,`id`,`duration`);--> statement-breakpoint
CREATE INDEX `call_logs_time_idx` ON `call_logs` (`start_time`);--> statement-breakpoint
CREATE INDEX `call_logs_assistant_time_idx` ON `call_logs` (`assistant_id`,`start_time`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`email` text NOT NULL,
	`company` text,
	`current_plan` text,
	`stripe_customer_id` text,
	`subscription_id` text,
	`subscription_status` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_email_uq` ON `customers` (lower("email"));--> statement-breakpoint
CREATE INDEX `customers_stripe_idx` ON `customers` (`stripe_customer_id`);--> statement-breakpoint
CREATE TABLE `daily_rollups` (
	`metric` text NOT NULL,
	`day` text NOT NULL,
	`store` text DEFAULT '' NOT NULL,
	`agent_key` text DEFAULT '' NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`metric`, `day`, `store`, `agent_key`)
);
--> statement-breakpoint
CREATE TABLE `leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
CREATE INDEX `leads_submitted_idx` ON `leads` (`submitted_at`);--> statement-breakpoint
CREATE INDEX `leads_store_submitted_idx` ON `leads` (`store`,`submitted_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`body_text` text NOT NULL,
	`link` text,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_to_idx` ON `mail_outbox` (`to_email`,`id`);--> statement-breakpoint
CREATE TABLE `phone_numbers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`phone_number` text NOT NULL,
	`friendly_name` text,
	`locality` text,
	`region` text,
	`iso_country` text DEFAULT 'US' NOT NULL,
	`sid` text,
	`vapi_phone_number_id` text,
	`agent_id` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`name` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_numbers_number_uq` ON `phone_numbers` (`phone_number`);--> statement-breakpoint
CREATE INDEX `phone_numbers_user_idx` ON `phone_numbers` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `phone_numbers_agent_uq` ON `phone_numbers` (`agent_id`) WHERE "phone_numbers"."agent_id" is not null;--> statement-breakpoint
CREATE TABLE `profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`username` text,
	`company` text,
	`first_name` text,
	`last_name` text,
	`is_admin` integer DEFAULT false NOT NULL,
	`shopwindows_info` integer DEFAULT false NOT NULL,
	`call_app` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `profiles_email_idx` ON `profiles` (lower("email"));--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sim_assistants` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`prompt` text NOT NULL,
	`voice_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sim_assistants_owner_idx` ON `sim_assistants` (`owner_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`customer_id` text NOT NULL,
	`price_id` text NOT NULL,
	`product_name` text,
	`status` text NOT NULL,
	`interval` text,
	`unit_amount` integer,
	`currency` text DEFAULT 'usd' NOT NULL,
	`trial_end` text,
	`current_period_end` text,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `subscriptions_customer_idx` ON `subscriptions` (`customer_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `system_config` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`event_type` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
