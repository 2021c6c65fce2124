-- artist_analytics as a WITHOUT ROWID table: its rows live in the B-tree of its primary key
-- (artist_id, kind), where a rowid table kept that key a second time in an index of its own
-- (about 66 MiB at full scale). Hand-written: drizzle's schema has no WITHOUT ROWID; the table's
-- columns and key are unchanged.
CREATE TABLE `__new_artist_analytics` (
	`artist_id` integer NOT NULL,
	`kind` text NOT NULL,
	`body` blob NOT NULL,
	PRIMARY KEY(`artist_id`, `kind`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_artist_analytics`("artist_id", "kind", "body") SELECT "artist_id", "kind", "body" FROM `artist_analytics`;--> statement-breakpoint
DROP TABLE `artist_analytics`;--> statement-breakpoint
ALTER TABLE `__new_artist_analytics` RENAME TO `artist_analytics`;
