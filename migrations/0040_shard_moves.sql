-- Moving an account between shards (decision 080): one row per move, driven in steps by the minute cron
-- and `npm run shards -- move`. `phase` and `cursor` say where the next step goes on (copying,
-- catching_up, switched, final, deleting, done); every step is idempotent, so a crash loses nothing.
-- `since` is the high-water mark of the next catch-up (updated_at and the other change times, with a
-- margin); `lease_until` keeps two steppers (the cron and the command) off one move at once.
CREATE TABLE `shard_moves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`phase` text DEFAULT 'copying' NOT NULL,
	`cursor` text DEFAULT '{"table":0,"after":0}' NOT NULL,
	`since` text,
	`rows_copied` integer DEFAULT 0 NOT NULL,
	`started_by` text NOT NULL,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`switched_at` text,
	`finished_at` text,
	`lease_until` text,
	`error` text
);
--> statement-breakpoint
-- One unfinished move per account.
CREATE UNIQUE INDEX `shard_moves_running_uq` ON `shard_moves` (`user_id`) WHERE `phase` <> 'done';
--> statement-breakpoint
CREATE INDEX `shard_moves_started_idx` ON `shard_moves` (`started_at`);
