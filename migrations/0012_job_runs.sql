CREATE TABLE `job_runs` (
	`job` text PRIMARY KEY NOT NULL,
	`cron` text NOT NULL,
	`last_run_id` text NOT NULL,
	`last_started_at` text NOT NULL,
	`last_finished_at` text NOT NULL,
	`last_duration_ms` integer NOT NULL,
	`last_ok` integer NOT NULL,
	`last_error` text,
	`last_error_at` text,
	`last_error_run_id` text
);
