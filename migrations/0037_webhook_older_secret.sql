-- A second rotated-out secret of a webhook endpoint, signing until its own expiry (decision 074).
ALTER TABLE `webhook_endpoints` ADD `older_secret` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `older_secret_expires_at` text;