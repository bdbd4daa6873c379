-- A stored one-store daily report names its day total after its store ("NAPLES total"), as the
-- report generated on request does, never "ALL" (which is the all-stores report's unfiltered row).
-- In a stored CSV the store is the second cell of a row, after the date; every other cell is a number.
UPDATE `daily_reports` SET `csv` = replace(`csv`, `day` || ',ALL,', `day` || ',' || `store` || ' total,') WHERE `store` IS NOT NULL;
