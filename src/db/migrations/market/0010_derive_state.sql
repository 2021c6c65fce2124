CREATE TABLE `derive_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` blob NOT NULL
);
