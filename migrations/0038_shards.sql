-- Accounts spread over D1 shards (decision 076). `profiles.shard` names the D1 binding (SHARD_0, …)
-- holding the account's calls, roll-ups, alerts and webhooks; it is set when the profile is made, to
-- the open shard with the most room, and moved by `npm run shards -- move`.
ALTER TABLE `profiles` ADD `shard` text;
--> statement-breakpoint
-- Each shard's last measured size (the database's own, from D1's answer) and whether it takes new
-- accounts. A shard bound to the Worker but not yet measured has no row; placement then falls back to
-- a pick among the bound shards by the account's id.
CREATE TABLE `shards` (
	`name` text PRIMARY KEY NOT NULL,
	`open` integer DEFAULT 1 NOT NULL,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`measured_at` text
);
--> statement-breakpoint
CREATE INDEX `profiles_shard_idx` ON `profiles` (`shard`);
--> statement-breakpoint
-- Every new profile is placed, whichever path makes it (sign-in, checkout, the local identity, the
-- seed): on the open shard with the most room, by 100 MB steps, a random one among equals. A
-- profile made while no shard is registered stays unplaced until its first request places it.
CREATE TRIGGER `profiles_placed` AFTER INSERT ON `profiles` WHEN NEW.`shard` IS NULL BEGIN UPDATE `profiles` SET `shard` = (SELECT `name` FROM `shards` WHERE `open` = 1 ORDER BY `size_bytes` / 100000000, random() LIMIT 1) WHERE `id` = NEW.`id`; END;
