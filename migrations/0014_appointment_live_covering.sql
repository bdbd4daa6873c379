DROP INDEX `appointments_begin_idx`;--> statement-breakpoint
DROP INDEX `appointments_booked_idx`;--> statement-breakpoint
CREATE INDEX `appointments_begin_idx` ON `appointments` (`begin_utc`,`status`,`is_virtual`,`virtual_outcome`,`store`,`booked_by`,`appointment_type`);--> statement-breakpoint
CREATE INDEX `appointments_booked_idx` ON `appointments` (`booked_at`,`begin_utc`,`booking_channel`,`store`,`booked_by`,`appointment_type`);