CREATE TABLE `follows` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `target_id`)
);
--> statement-breakpoint
CREATE INDEX `follows_recent` ON `follows` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `shares` (
	`token` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`ids` text NOT NULL,
	`title` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shares_user` ON `shares` (`user_id`);