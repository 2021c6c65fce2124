CREATE TABLE `estimate_history` (
	`artwork_id` integer NOT NULL,
	`until` integer NOT NULL,
	`estimate_usd` integer,
	`estimate_min_usd` integer,
	`estimate_max_usd` integer,
	`price_change_12mo` integer,
	`price_change_24mo` integer,
	PRIMARY KEY(`artwork_id`, `until`)
) WITHOUT ROWID;
