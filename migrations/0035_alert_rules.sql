-- Alerts (decision 071, docs/alerts.md). An account's rules: a metric over a scope, compared with a
-- threshold over a window, with a cooldown, a severity and its channels. At most 50 per account
-- (checked by the API). `scope_id` is '' for the whole account, else the agent's id, the number's
-- id or the store's name; `extra_emails` a JSON array of addresses.
CREATE TABLE `alert_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`metric` text NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_id` text DEFAULT '' NOT NULL,
	`comparison` text NOT NULL,
	`threshold` real NOT NULL,
	`window_minutes` integer NOT NULL,
	`cooldown_minutes` integer NOT NULL,
	`severity` text NOT NULL,
	`email_account` integer DEFAULT 1 NOT NULL,
	`extra_emails` text DEFAULT '[]' NOT NULL,
	`webhook` integer DEFAULT 0 NOT NULL,
	`bell` integer DEFAULT 1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_rules_user_idx` ON `alert_rules` (`user_id`,`id`);
--> statement-breakpoint
-- Each rule's state: ok or triggered since when, the alert it is in, and when it last fired (the
-- cooldown's start). A run moves a rule with one conditional UPDATE naming itself in `run_id`; the
-- history row and the bell's row are written in the same batch only where that UPDATE took, so two
-- overlapping runs fire a breach once.
CREATE TABLE `alert_rule_state` (
	`rule_id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text DEFAULT 'ok' NOT NULL,
	`since` text NOT NULL,
	`last_fired_at` text,
	`alert_id` integer,
	`run_id` text,
	`evaluated_at` text,
	`last_value` real,
	FOREIGN KEY (`rule_id`) REFERENCES `alert_rules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_rule_state_user_idx` ON `alert_rule_state` (`user_id`);
--> statement-breakpoint
-- Every firing, kept 90 days: the rule as it was then (its name, metric, scope, threshold, window),
-- the value and the window that fired it, when it resolved and who acknowledged it.
CREATE TABLE `alert_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`rule_id` integer,
	`rule_name` text NOT NULL,
	`metric` text NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_id` text DEFAULT '' NOT NULL,
	`scope_label` text DEFAULT '' NOT NULL,
	`severity` text NOT NULL,
	`comparison` text NOT NULL,
	`threshold` real NOT NULL,
	`window_minutes` integer NOT NULL,
	`value` real NOT NULL,
	`window_start` text NOT NULL,
	`window_end` text NOT NULL,
	`fired_at` text NOT NULL,
	`run_id` text NOT NULL,
	`resolved_at` text,
	`resolved_value` real,
	`acknowledged_at` text,
	`acknowledged_by` text
);
--> statement-breakpoint
CREATE INDEX `alert_history_user_idx` ON `alert_history` (`user_id`,`fired_at`);
--> statement-breakpoint
CREATE INDEX `alert_history_fired_idx` ON `alert_history` (`fired_at`);
--> statement-breakpoint
-- A run finds the alert it just wrote by (rule, run): one seek, however long the history.
CREATE INDEX `alert_history_rule_run_idx` ON `alert_history` (`rule_id`,`run_id`);
--> statement-breakpoint
-- The in-app bell: one row per firing and per resolution; `read_at` set when the user reads it.
CREATE TABLE `alert_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`alert_id` integer NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`severity` text NOT NULL,
	`created_at` text NOT NULL,
	`read_at` text
);
--> statement-breakpoint
CREATE INDEX `alert_notifications_user_idx` ON `alert_notifications` (`user_id`,`id`);
