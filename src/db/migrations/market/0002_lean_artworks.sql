DROP TABLE `repeat_pairs`;--> statement-breakpoint
ALTER TABLE `artworks` DROP COLUMN `slug`;