-- The artworks' last sale day as a day number (days since 1970-01-01, an integer of 2-3 bytes) in
-- place of its ISO date (10 bytes of text), in the table and its two indexes: about 0.27 GB less
-- at full scale. Hand-written: a column's type cannot change in place, so the day is a new column,
-- filled from the date, and the date goes (with the indexes on it; the category one is rebuilt
-- with the read indexes).
DROP INDEX IF EXISTS `artworks_last_sold`;--> statement-breakpoint
DROP INDEX IF EXISTS `artworks_category_sold_year_estimate`;--> statement-breakpoint
ALTER TABLE `artworks` ADD `day_last_sold` integer;--> statement-breakpoint
UPDATE `artworks` SET `day_last_sold` = CAST(julianday(`date_last_sold`) - 2440587.5 AS INTEGER) WHERE `date_last_sold` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `artworks` DROP COLUMN `date_last_sold`;--> statement-breakpoint
CREATE INDEX `artworks_last_sold` ON `artworks` (`day_last_sold`);
