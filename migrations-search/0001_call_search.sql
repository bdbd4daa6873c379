-- The search database (SEARCH_DB, decision 059): a full-text index of the call logs' transcripts,
-- summaries and phone numbers, rebuildable from the call logs at any time. It lives apart from the
-- main database because `wrangler d1 export` refuses a database holding an FTS5 table.
--
-- One row per owned call log. Its rowid is (start second << 31) | call_logs.id, so rowid order is
-- newest first and `ORDER BY rowid DESC LIMIT n` stops after n matches. `owner` holds one token per
-- account ('o' + the hex of its id), matched inside the query, so a search reads only its owner's rows.
-- `phone` holds the number's digits as a few tokens (all of them, the last 10, the last 7, the last 4).
-- columnsize=0: nothing ranks by bm25, so the per-row token counts are not kept.
CREATE VIRTUAL TABLE `call_search` USING fts5(
	owner, phone, summary, transcript,
	tokenize = 'unicode61 remove_diacritics 2',
	columnsize = 0
);
--> statement-breakpoint
-- Which index row a call log has, and the call log's updated_at it was built from: a write of an
-- older version of the row never replaces a newer one, and a call whose start moves loses its old row.
CREATE TABLE `call_search_docs` (
	`call_log_id` integer PRIMARY KEY NOT NULL,
	`doc_rowid` integer NOT NULL,
	`user_id` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `call_search_docs_user_idx` ON `call_search_docs` (`user_id`);
--> statement-breakpoint
-- The healing pass's high-water mark: the (updated_at, id) of the last call log it indexed.
CREATE TABLE `call_search_state` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`updated_at` text NOT NULL,
	`call_log_id` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `call_search_state` (`id`, `updated_at`, `call_log_id`) VALUES (1, '', 0);
