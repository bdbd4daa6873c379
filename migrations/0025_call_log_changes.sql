-- The live feed's change log (decision 058): one row per write to an account's call log, in order.
-- `seq` is the cursor a browser resumes from after a reconnect; the triggers fill it in the
-- transaction of the write itself, so every committed change has its row and no row exists for a
-- write that failed. A row names the call; the feed reads the call as it is now.
-- Rows stamped more than a day in the past (seeded or imported history) are no live event and
-- write no change. The nightly job keeps the last three days.
CREATE TABLE `call_log_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`call_log_id` integer NOT NULL,
	`changed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `call_log_changes_user_seq_idx` ON `call_log_changes` (`user_id`, `seq`);
--> statement-breakpoint
CREATE INDEX `call_log_changes_changed_at_idx` ON `call_log_changes` (`changed_at`);
--> statement-breakpoint
CREATE TRIGGER `call_log_changes_insert` AFTER INSERT ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`) VALUES (NEW.`user_id`, NEW.`id`); END;
--> statement-breakpoint
-- An update: a webhook's (updated_at moves to now), or an orphan call adopted by its account.
CREATE TRIGGER `call_log_changes_update` AFTER UPDATE ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND (NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') OR OLD.`user_id` IS NOT NEW.`user_id`) BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`) VALUES (NEW.`user_id`, NEW.`id`); END;
