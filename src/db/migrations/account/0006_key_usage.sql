CREATE TABLE `du_key_daily` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`key_id` integer NOT NULL,
	`du` real NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `key_id`)
);--> statement-breakpoint
INSERT INTO `du_key_daily` (`user_id`, `day`, `key_id`, `du`, `requests`) SELECT `user_id`, `day`, `key_id`, sum(`du`), count(*) FROM `du_ledger` GROUP BY 1, 2, 3;
