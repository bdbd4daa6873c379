CREATE TABLE `phone_number_offers` (
	`user_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `phone_number`),
	FOREIGN KEY (`user_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade
);
