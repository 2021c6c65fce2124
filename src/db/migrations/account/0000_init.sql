CREATE TABLE `account_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kid` text NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_kid` ON `api_keys` (`kid`);--> statement-breakpoint
CREATE INDEX `api_keys_user` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `du_daily` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`endpoint` text NOT NULL,
	`du` real NOT NULL,
	`requests` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`, `endpoint`)
);
--> statement-breakpoint
CREATE TABLE `du_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`ts` integer NOT NULL,
	`day` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`records` integer NOT NULL,
	`du` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `du_ledger_user_ts` ON `du_ledger` (`user_id`,`ts`);--> statement-breakpoint
CREATE TABLE `notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`plan_slug` text NOT NULL,
	`pool` text NOT NULL,
	`threshold` integer NOT NULL,
	`period_start` text NOT NULL,
	`period_end` text NOT NULL,
	`du_limit` real NOT NULL,
	`du_consumed` real NOT NULL,
	`projected_eop` real NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notices_once` ON `notices` (`user_id`,`pool`,`threshold`,`period_start`);--> statement-breakpoint
CREATE TABLE `plans` (
	`slug` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`du_limit` real NOT NULL,
	`period_days` integer NOT NULL,
	`rps_limit` integer NOT NULL,
	`rpm_limit` integer NOT NULL,
	`throttle_multiplier` real DEFAULT 1 NOT NULL,
	`price_usd` real NOT NULL,
	`features` text DEFAULT '{}' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`plan_slug` text NOT NULL,
	`period_anchor` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`plan_slug`) REFERENCES `plans`(`slug`) ON UPDATE no action ON DELETE no action
);
