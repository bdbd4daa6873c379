-- The search index's healing pass (decision 059) reads the call logs changed since its high-water
-- mark, in (updated_at, id) order, every ten minutes: without this index that is a scan of every call.
CREATE INDEX `call_logs_updated_idx` ON `call_logs` (`updated_at`, `id`);
