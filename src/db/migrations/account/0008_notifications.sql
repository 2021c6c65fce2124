CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`snapshot_id` text NOT NULL,
	`subject_kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_once` ON `notifications` (`user_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `notifications_user` ON `notifications` (`user_id`,`occurred_at`);