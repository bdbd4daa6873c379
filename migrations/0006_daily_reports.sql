CREATE TABLE `daily_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`store` text,
	`csv` text NOT NULL,
	`rows` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `daily_reports_day_store_idx` ON `daily_reports` (`day`,(CASE WHEN store IS NULL THEN '' ELSE store END));