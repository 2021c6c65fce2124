CREATE TABLE `auction_houses` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`priority_order` integer NOT NULL,
	`is_live` integer NOT NULL,
	`country` text,
	`city` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auction_houses_slug` ON `auction_houses` (`slug`);--> statement-breakpoint
CREATE INDEX `auction_houses_priority` ON `auction_houses` (`priority_order`,`id`);--> statement-breakpoint
CREATE TABLE `auction_locations` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`currency` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auction_locations_name` ON `auction_locations` (`name`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `currencies` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`decimals` integer DEFAULT 2 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `damages` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `market_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `materials` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `substrates` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `surfaces` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL
);
