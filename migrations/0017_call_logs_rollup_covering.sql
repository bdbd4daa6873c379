DROP INDEX `call_logs_time_idx`;--> statement-breakpoint
CREATE INDEX `call_logs_time_idx` ON `call_logs` (`start_time`,`user_id`,`assistant_id`,`direction`,`ended_reason`,`duration`,`cost`);