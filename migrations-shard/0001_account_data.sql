-- A shard (decision 076): the databases SHARD_0, SHARD_1, … each hold the data that grows with an
-- account's calls, for the accounts the directory (DB, profiles.shard) places on it: the call logs with
-- their roll-ups, roll-up state, change log and full-text index, the alert rules with their state and
-- history, and the custom webhooks with their deliveries and attempts. The tables are those of the
-- directory's migrations as they stood at 0037, without the foreign keys to the directory's profiles
-- (an account's rows are deleted by the account deletion, which reaches every shard). Every shard
-- runs the same migrations (npm run db:migrate); worker/proof/shard-schemas.test.ts compares them.
-- closed_day_version is the shard's own: the ETag of an answer over closed days names both versions.

CREATE TABLE `closed_day_version` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`version` integer NOT NULL
);
INSERT INTO `closed_day_version` (`id`, `version`) VALUES (1, 0);

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
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);

CREATE UNIQUE INDEX `call_logs_call_id_uq` ON `call_logs` (`call_id`);

CREATE INDEX `call_logs_assistant_time_idx` ON `call_logs` (`assistant_id`,`start_time`);

CREATE INDEX `call_logs_phone_time_idx` ON `call_logs` (`phone_number`,`start_time`);

CREATE TABLE `rollup_dirty_days` (
	`source` text NOT NULL,
	`day` text NOT NULL,
	`marked_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`source`, `day`)
);

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

CREATE TABLE `rollup_state` (
	`source` text PRIMARY KEY NOT NULL,
	`from_day` text NOT NULL,
	`until_day` text NOT NULL
);

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
);

CREATE INDEX `call_logs_user_time_idx` ON `call_logs` (`user_id`,`start_time`,`id`,`duration`,`direction`,`assistant_id`,`ended_reason`,`cost`);

CREATE INDEX `call_logs_time_idx` ON `call_logs` (`start_time`,`user_id`,`assistant_id`,`direction`,`ended_reason`,`duration`,`cost`);

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

CREATE TABLE `rollup_hour_state` (
	`source` text PRIMARY KEY NOT NULL,
	`from_at` text NOT NULL,
	`through_at` text NOT NULL
);

CREATE TRIGGER `closed_day_version_mark` AFTER INSERT ON `rollup_dirty_days` WHEN NEW.`source` <> 'daily_reports' AND NEW.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_remark` AFTER UPDATE ON `rollup_dirty_days` WHEN NEW.`source` <> 'daily_reports' AND NEW.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_cleared` AFTER DELETE ON `rollup_dirty_days` WHEN OLD.`source` <> 'daily_reports' AND OLD.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_rollup_run` AFTER INSERT ON `rollup_state` BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_rollup_rerun` AFTER UPDATE ON `rollup_state` BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_hours` AFTER UPDATE ON `rollup_hour_state` WHEN OLD.`through_at` IS NOT NEW.`through_at` AND min(OLD.`through_at`, NEW.`through_at`) < strftime('%Y-%m-%dT%H:%M:%fZ', date('now', '-230 minutes'), '+310 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TRIGGER `closed_day_version_call_moved` AFTER UPDATE OF `start_time` ON `call_logs` WHEN OLD.`start_time` IS NOT NEW.`start_time` AND min(OLD.`start_time`, NEW.`start_time`) < strftime('%Y-%m-%dT%H:%M:%fZ', date('now', '-230 minutes'), '+310 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;

CREATE TABLE `call_log_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`call_log_id` integer NOT NULL,
	`changed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
, `account_seq` integer NOT NULL DEFAULT 0);

CREATE INDEX `call_log_changes_changed_at_idx` ON `call_log_changes` (`changed_at`);

CREATE INDEX `call_logs_updated_idx` ON `call_logs` (`updated_at`, `id`);

CREATE UNIQUE INDEX `call_log_changes_user_account_seq_idx` ON `call_log_changes` (`user_id`, `account_seq`);

CREATE TRIGGER `call_log_changes_insert` AFTER INSERT ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`, `account_seq`) VALUES (NEW.`user_id`, NEW.`id`, coalesce((SELECT max(`account_seq`) FROM `call_log_changes` WHERE `user_id` = NEW.`user_id`), 0) + 1); END;

CREATE TRIGGER `call_log_changes_update` AFTER UPDATE ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND (NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') OR OLD.`user_id` IS NOT NEW.`user_id`) BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`, `account_seq`) VALUES (NEW.`user_id`, NEW.`id`, coalesce((SELECT max(`account_seq`) FROM `call_log_changes` WHERE `user_id` = NEW.`user_id`), 0) + 1); END;

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
, `older_secret` text, `older_secret_expires_at` text);

CREATE INDEX `webhook_endpoints_user_idx` ON `webhook_endpoints` (`user_id`);

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

CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`, `created_at`);

CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);

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

CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`, `attempt`);

CREATE INDEX `webhook_attempts_time_idx` ON `webhook_attempts` (`attempted_at`);

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
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);

CREATE INDEX `alert_rules_user_idx` ON `alert_rules` (`user_id`,`id`);

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

CREATE INDEX `alert_rule_state_user_idx` ON `alert_rule_state` (`user_id`);

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

CREATE INDEX `alert_history_user_idx` ON `alert_history` (`user_id`,`fired_at`);

CREATE INDEX `alert_history_fired_idx` ON `alert_history` (`fired_at`);

CREATE INDEX `alert_history_rule_run_idx` ON `alert_history` (`rule_id`,`run_id`);

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

CREATE INDEX `alert_notifications_user_idx` ON `alert_notifications` (`user_id`,`id`);

-- The full-text index of the shard's call logs (decision 059).
CREATE VIRTUAL TABLE `call_search` USING fts5(
	owner, phone, summary, transcript,
	tokenize = 'porter unicode61 remove_diacritics 2',
	columnsize = 0
);
CREATE TABLE `call_search_docs` (
	`call_log_id` integer PRIMARY KEY NOT NULL,
	`doc_rowid` integer NOT NULL,
	`user_id` text NOT NULL,
	`updated_at` text NOT NULL
);
CREATE INDEX `call_search_docs_user_idx` ON `call_search_docs` (`user_id`);
CREATE TABLE `call_search_state` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`updated_at` text NOT NULL,
	`call_log_id` integer NOT NULL
);
INSERT INTO `call_search_state` (`id`, `updated_at`, `call_log_id`) VALUES (1, '', 0);
