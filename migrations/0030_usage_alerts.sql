-- The owner's mail at 80 % and at 100 % of the plan's call minutes, once per New York month each
-- (decision 022): a row is claimed before its mail is sent, so no run sends it twice.
CREATE TABLE `usage_alerts` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`threshold` integer NOT NULL,
	`claimed_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `threshold`)
);
