-- Lots keep their sale's start as Unix seconds (was ISO text); artist_analytics bodies become
-- zstd-compressed JSON (bodies written before stay readable as text). Hand-edited: the copy
-- converts sale_datetime. The read indexes on lots are rebuilt when a reader opens the market.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_artist_analytics` (
	`artist_id` integer NOT NULL,
	`kind` text NOT NULL,
	`body` blob NOT NULL,
	PRIMARY KEY(`artist_id`, `kind`)
);
--> statement-breakpoint
INSERT INTO `__new_artist_analytics`("artist_id", "kind", "body") SELECT "artist_id", "kind", "body" FROM `artist_analytics`;--> statement-breakpoint
DROP TABLE `artist_analytics`;--> statement-breakpoint
ALTER TABLE `__new_artist_analytics` RENAME TO `artist_analytics`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_lots` (
	`id` integer PRIMARY KEY NOT NULL,
	`sale_id` integer NOT NULL,
	`artwork_id` integer NOT NULL,
	`artist_id` integer NOT NULL,
	`house_id` integer NOT NULL,
	`lot_num` text NOT NULL,
	`lot_seq` integer NOT NULL,
	`status` text NOT NULL,
	`sale_status` text NOT NULL,
	`sale_datetime` integer NOT NULL,
	`location_id` integer NOT NULL,
	`creation_year` integer,
	`is_top` integer DEFAULT false NOT NULL,
	`reserve_mark` integer DEFAULT false NOT NULL,
	`third_party_mark` integer DEFAULT false NOT NULL,
	`currency` text NOT NULL,
	`hammer` real,
	`estimate_min` real,
	`estimate_max` real,
	`premium` real,
	`hammer_usd` real,
	`estimate_min_usd` real,
	`estimate_max_usd` real,
	`premium_usd` real,
	`notes` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_lots`("id", "sale_id", "artwork_id", "artist_id", "house_id", "lot_num", "lot_seq", "status", "sale_status", "sale_datetime", "location_id", "creation_year", "is_top", "reserve_mark", "third_party_mark", "currency", "hammer", "estimate_min", "estimate_max", "premium", "hammer_usd", "estimate_min_usd", "estimate_max_usd", "premium_usd", "notes") SELECT "id", "sale_id", "artwork_id", "artist_id", "house_id", "lot_num", "lot_seq", "status", "sale_status", unixepoch("sale_datetime"), "location_id", "creation_year", "is_top", "reserve_mark", "third_party_mark", "currency", "hammer", "estimate_min", "estimate_max", "premium", "hammer_usd", "estimate_min_usd", "estimate_max_usd", "premium_usd", "notes" FROM `lots`;--> statement-breakpoint
DROP TABLE `lots`;--> statement-breakpoint
ALTER TABLE `__new_lots` RENAME TO `lots`;--> statement-breakpoint
CREATE INDEX `lots_sale` ON `lots` (`sale_id`,`lot_seq`);--> statement-breakpoint
CREATE INDEX `lots_artist_date` ON `lots` (`artist_id`,`sale_datetime`);--> statement-breakpoint
CREATE INDEX `lots_artwork` ON `lots` (`artwork_id`,`sale_datetime`);--> statement-breakpoint
CREATE INDEX `lots_date` ON `lots` (`sale_datetime`);