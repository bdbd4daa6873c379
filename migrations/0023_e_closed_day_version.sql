-- One number that moves whenever an answer over closed New York days may change (decision 056): the
-- browser keeps such answers with an ETag built on it, and a request whose ETag still matches is
-- answered 304 after reading this one row. Each trigger bumps it in the transaction of the write.
-- A day counts as closed when it is before date('now', '-230 minutes'): New York's day is UTC minus
-- four or five hours, so that bound is at or after New York's today, with ten minutes to spare for
-- clocks. The matching instant (T below) is that day's start plus 310 minutes, at or after New York's
-- midnight.
CREATE TABLE `closed_day_version` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `closed_day_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
-- Every writer of calls, appointments and leads marks the days it changes, in its own batch: a mark of
-- a closed day (new, moved forward, or cleared by the roll-up job as it rebuilds the day) is a change.
CREATE TRIGGER `closed_day_version_mark` AFTER INSERT ON `rollup_dirty_days` WHEN NEW.`source` <> 'daily_reports' AND NEW.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `closed_day_version_remark` AFTER UPDATE ON `rollup_dirty_days` WHEN NEW.`source` <> 'daily_reports' AND NEW.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `closed_day_version_cleared` AFTER DELETE ON `rollup_dirty_days` WHEN OLD.`source` <> 'daily_reports' AND OLD.`day` < date('now', '-230 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
-- The daily roll-up run changes which days the roll-ups answer (once per source and run).
CREATE TRIGGER `closed_day_version_rollup_run` AFTER INSERT ON `rollup_state` BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `closed_day_version_rollup_rerun` AFTER UPDATE ON `rollup_state` BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
-- The intraday roll-up answers yesterday's hours until the daily run covers them: its watermark moving
-- within a closed day changes which rows answer.
CREATE TRIGGER `closed_day_version_hours` AFTER UPDATE ON `rollup_hour_state` WHEN OLD.`through_at` IS NOT NEW.`through_at` AND min(OLD.`through_at`, NEW.`through_at`) < strftime('%Y-%m-%dT%H:%M:%fZ', date('now', '-230 minutes'), '+310 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
-- A call whose start moves leaves a day nobody marks (its new day is marked).
CREATE TRIGGER `closed_day_version_call_moved` AFTER UPDATE OF `start_time` ON `call_logs` WHEN OLD.`start_time` IS NOT NEW.`start_time` AND min(OLD.`start_time`, NEW.`start_time`) < strftime('%Y-%m-%dT%H:%M:%fZ', date('now', '-230 minutes'), '+310 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `closed_day_version_aircall_moved` AFTER UPDATE OF `started_at` ON `aircall_calls` WHEN OLD.`started_at` IS NOT NEW.`started_at` AND min(OLD.`started_at`, NEW.`started_at`) < strftime('%Y-%m-%dT%H:%M:%fZ', date('now', '-230 minutes'), '+310 minutes') BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
-- A deleted account's calls are removed without marks; its answers end with it.
CREATE TRIGGER `closed_day_version_account_deleted` AFTER INSERT ON `deleted_accounts` BEGIN UPDATE `closed_day_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
