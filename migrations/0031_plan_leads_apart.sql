-- Visitors' plan leads (the checkout's lead form, docs/product/plans-and-billing.md) are kept apart from the stores' leads
-- (docs/product/api.md#dashboard-counts), which every lead count, roll-up and daily report reads: an anonymous form no longer
-- moves a store figure. The leads without a store were the form's (ingestion requires a store); they
-- move here, and the days whose roll-ups counted them are marked for the roll-up job, so the counts
-- read those days live until it recomputes them and the stored reports of those days are rebuilt.
CREATE TABLE `plan_leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`company` text,
	`lead_source` text NOT NULL,
	`lead_status` text DEFAULT 'new' NOT NULL,
	`interest_level` integer DEFAULT 4 NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`submitted_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `plan_leads_submitted_idx` ON `plan_leads` (`submitted_at`);
--> statement-breakpoint
INSERT INTO `plan_leads` (`email`, `phone`, `first_name`, `last_name`, `company`, `lead_source`, `lead_status`, `interest_level`, `metadata`, `submitted_at`)
SELECT coalesce(`email`, ''), coalesce(`phone`, ''), coalesce(`first_name`, ''), coalesce(`last_name`, ''), `company`,
	CASE WHEN `lead_source` = 'trial' THEN 'trial' ELSE 'website' END, `lead_status`, `interest_level`, `metadata`, `submitted_at`
FROM `leads` WHERE `store` IS NULL ORDER BY `id`;
--> statement-breakpoint
INSERT INTO `rollup_dirty_days` (`source`, `day`) SELECT 'leads', `day` FROM `lead_daily` WHERE `store` = ''
ON CONFLICT (`source`, `day`) DO UPDATE SET `marked_at` = excluded.`marked_at`;
--> statement-breakpoint
DELETE FROM `leads` WHERE `store` IS NULL;
