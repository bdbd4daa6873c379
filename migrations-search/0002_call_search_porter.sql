-- Words match by their stem (porter: "refunded" finds "refund", "hear" finds "hearing") and are looked
-- up as whole terms: a prefix term makes FTS5 merge the doclists of every word it starts, which for a
-- common word is most of the index, while a whole term's doclist is read lazily in rowid order and
-- `ORDER BY rowid DESC LIMIT n` stops after n matches (decision 059). The owner token is digits only,
-- which the stemmer leaves as they are. The index is emptied here and rebuilt from the call logs (the
-- seed, `npm run search:rebuild`, or the cron's healing pass from the reset mark).
DROP TABLE `call_search`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `call_search` USING fts5(
	owner, phone, summary, transcript,
	tokenize = 'porter unicode61 remove_diacritics 2',
	columnsize = 0
);
--> statement-breakpoint
DELETE FROM `call_search_docs`;
--> statement-breakpoint
UPDATE `call_search_state` SET `updated_at` = '', `call_log_id` = 0 WHERE `id` = 1;
