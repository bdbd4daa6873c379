-- API keys of the public API (/v1, docs/api.md): a name, its scopes (a JSON array), the prefix shown
-- in the list, and only the SHA-256 of the secret (decision 069). A revoked key keeps its row, so the
-- list and the audit log can still name it and a call with it is refused as revoked.
CREATE TABLE `api_keys` (
  `id` text PRIMARY KEY NOT NULL,
  `user_id` text NOT NULL REFERENCES `profiles`(`id`) ON DELETE CASCADE,
  `name` text NOT NULL,
  `scopes` text NOT NULL,
  `prefix` text NOT NULL,
  `secret_hash` text NOT NULL,
  `created_at` text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  `last_used_at` text,
  `revoked_at` text
);
--> statement-breakpoint
-- The one lookup of every /v1 request: the hash of the key it sends.
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`secret_hash`);
--> statement-breakpoint
-- The account's list and its live-key count (the cap of 10).
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`, `revoked_at`, `created_at`);
