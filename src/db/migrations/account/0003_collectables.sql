CREATE TABLE `collectable_acquisitions` (
	`collectable_id` integer PRIMARY KEY NOT NULL,
	`date` text,
	`price` real,
	`currency` text,
	`price_usd` real,
	`location` text,
	`source_type` text,
	`seller_name` text,
	`dealer_name` text,
	`auction_house_id` integer,
	`auction_house_name` text,
	`use_instead_of_estimates` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`collectable_id`) REFERENCES `collectables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collectable_appraisals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collectable_id` integer NOT NULL,
	`type` text NOT NULL,
	`value` real NOT NULL,
	`currency` text NOT NULL,
	`value_usd` real NOT NULL,
	`date` text NOT NULL,
	`company_name` text,
	`is_best_guess` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`collectable_id`) REFERENCES `collectables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collectable_appraisals_parent` ON `collectable_appraisals` (`collectable_id`);--> statement-breakpoint
CREATE TABLE `collectable_comp_sets` (
	`collectable_id` integer PRIMARY KEY NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`collectable_id`) REFERENCES `collectables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collectable_comps` (
	`collectable_id` integer NOT NULL,
	`position` integer NOT NULL,
	`artist_id` integer NOT NULL,
	`artwork_id` integer NOT NULL,
	`weight` real DEFAULT 1 NOT NULL,
	PRIMARY KEY(`collectable_id`, `position`),
	FOREIGN KEY (`collectable_id`) REFERENCES `collectable_comp_sets`(`collectable_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `collectable_provenance` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collectable_id` integer NOT NULL,
	`owner` text NOT NULL,
	`location` text,
	`year_from` integer,
	`year_to` integer,
	`is_up_to_present` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`collectable_id`) REFERENCES `collectables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collectable_provenance_parent` ON `collectable_provenance` (`collectable_id`);--> statement-breakpoint
CREATE TABLE `collectable_sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collectable_id` integer NOT NULL,
	`value` real NOT NULL,
	`currency` text NOT NULL,
	`value_usd` real NOT NULL,
	`date` text NOT NULL,
	`location` text,
	`type` text,
	`auction_house_id` integer,
	`seller_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`collectable_id`) REFERENCES `collectables`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `collectable_sales_parent` ON `collectable_sales` (`collectable_id`);--> statement-breakpoint
CREATE TABLE `collectables` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`user_id` integer NOT NULL,
	`artist_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`suggested_artwork_id` integer,
	`title` text DEFAULT '' NOT NULL,
	`creation_year` integer,
	`edition_unique_type` text NOT NULL,
	`edition_number` integer,
	`edition_size` integer,
	`condition` text,
	`signature` text,
	`current_location` text,
	`measurements_unit` text DEFAULT 'cm' NOT NULL,
	`measurements_height` real,
	`measurements_width` real,
	`measurements_depth` real,
	`material_ids` text DEFAULT '[]' NOT NULL,
	`substrate_ids` text DEFAULT '[]' NOT NULL,
	`surface_ids` text DEFAULT '[]' NOT NULL,
	`damage_ids` text DEFAULT '[]' NOT NULL,
	`manual_price_value` real,
	`selected_price_type` text DEFAULT 'machine' NOT NULL,
	`image_kind` text,
	`image_key` text,
	`image_market_id` integer,
	`image_width` integer,
	`image_height` integer,
	`embedding` blob,
	`machine_estimate_usd` real,
	`machine_estimate_basis` text,
	`valued_on` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collectables_uid` ON `collectables` (`uid`);--> statement-breakpoint
CREATE UNIQUE INDEX `collectables_image_key` ON `collectables` (`image_key`);--> statement-breakpoint
CREATE INDEX `collectables_user_created` ON `collectables` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `collectables_user_artist` ON `collectables` (`user_id`,`artist_id`);--> statement-breakpoint
CREATE INDEX `collectables_user_category` ON `collectables` (`user_id`,`category_id`);