-- Custom webhooks (docs/webhooks.md, decision 070): an account's endpoints, each event's delivery to
-- each endpoint (one webhook-id for all its attempts), and every attempt, kept 30 days. The local
-- receiver's inbox (outside production only) keeps what it received.
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`enabled` integer DEFAULT 1 NOT NULL,
	`disabled_reason` text,
	`failing_since` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_user_idx` ON `webhook_endpoints` (`user_id`);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`user_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` text,
	`next_attempt_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);
--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`attempted_at` text NOT NULL,
	`response_status` integer,
	`duration_ms` integer NOT NULL,
	`response_body` text,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`, `attempt`);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_time_idx` ON `webhook_attempts` (`attempted_at`);
--> statement-breakpoint
CREATE TABLE `webhook_inbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inbox` text NOT NULL,
	`received_at` text NOT NULL,
	`webhook_id` text,
	`event_type` text,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	`verified` integer DEFAULT 0 NOT NULL,
	`verify_error` text
);
--> statement-breakpoint
CREATE INDEX `webhook_inbox_inbox_idx` ON `webhook_inbox` (`inbox`, `id`);
