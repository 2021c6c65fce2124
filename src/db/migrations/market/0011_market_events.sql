CREATE TABLE `market_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`day` text NOT NULL,
	`subject_kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`lot_id` integer,
	`artwork_id` integer,
	`artist_id` integer,
	`sale_id` integer,
	`data` text NOT NULL
);
