-- The live feed's cursor counts one account's changes only (decision 058): `account_seq` numbers each
-- account's rows 1, 2, 3..., so the cursor a browser holds tells nothing of other accounts' calls (the
-- global `seq` did: the gap between two cursors was the platform's number of call changes). The
-- triggers number a row in the write's own transaction, after the account's newest row (the unique
-- index finds it and refuses a duplicate). The log starts empty: a browser resuming from a cursor of
-- the old numbering finds it past the log's end and is told to resync.
DELETE FROM `call_log_changes`;
--> statement-breakpoint
ALTER TABLE `call_log_changes` ADD `account_seq` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
DROP INDEX `call_log_changes_user_seq_idx`;
--> statement-breakpoint
CREATE UNIQUE INDEX `call_log_changes_user_account_seq_idx` ON `call_log_changes` (`user_id`, `account_seq`);
--> statement-breakpoint
DROP TRIGGER `call_log_changes_insert`;
--> statement-breakpoint
CREATE TRIGGER `call_log_changes_insert` AFTER INSERT ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`, `account_seq`) VALUES (NEW.`user_id`, NEW.`id`, coalesce((SELECT max(`account_seq`) FROM `call_log_changes` WHERE `user_id` = NEW.`user_id`), 0) + 1); END;
--> statement-breakpoint
DROP TRIGGER `call_log_changes_update`;
--> statement-breakpoint
-- An update: a webhook's (updated_at moves to now), or an orphan call adopted by its account.
CREATE TRIGGER `call_log_changes_update` AFTER UPDATE ON `call_logs` WHEN NEW.`user_id` IS NOT NULL AND (NEW.`updated_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') OR OLD.`user_id` IS NOT NEW.`user_id`) BEGIN INSERT INTO `call_log_changes` (`user_id`, `call_log_id`, `account_seq`) VALUES (NEW.`user_id`, NEW.`id`, coalesce((SELECT max(`account_seq`) FROM `call_log_changes` WHERE `user_id` = NEW.`user_id`), 0) + 1); END;
