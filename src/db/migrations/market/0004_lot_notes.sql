-- Lots name their catalogue notes by id (lot_notes holds each text once). Hand-edited: the
-- texts are moved into lot_notes before the column goes.
CREATE TABLE `lot_notes` (
	`id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `lots` ADD `notes_id` integer;--> statement-breakpoint
INSERT INTO `lot_notes` (`text`) SELECT DISTINCT `notes` FROM `lots` WHERE `notes` <> '' ORDER BY `notes`;--> statement-breakpoint
CREATE INDEX `lot_notes_text_once` ON `lot_notes` (`text`);--> statement-breakpoint
UPDATE `lots` SET `notes_id` = (SELECT n.`id` FROM `lot_notes` n WHERE n.`text` = `lots`.`notes`) WHERE `notes` <> '';--> statement-breakpoint
DROP INDEX `lot_notes_text_once`;--> statement-breakpoint
ALTER TABLE `lots` DROP COLUMN `notes`;
