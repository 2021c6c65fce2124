-- The artworks' source rows leave market.db: the served artworks keep every source column (signed
-- added here), and src_artworks lives in a file of its own while a snapshot is built
-- (src/db/works-file.ts). Hand-edited: signed is copied before the table goes.
ALTER TABLE `artworks` ADD `signed` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `artworks` SET `signed` = s.`signed` FROM `src_artworks` s WHERE s.`id` = `artworks`.`id`;--> statement-breakpoint
DROP TABLE `src_artworks`;
