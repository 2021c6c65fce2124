CREATE TABLE `artist_analytics` (
	`artist_id` integer NOT NULL,
	`kind` text NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`artist_id`, `kind`)
);
--> statement-breakpoint
CREATE TABLE `artist_charts` (
	`artist_id` integer PRIMARY KEY NOT NULL,
	`start_month` text NOT NULL,
	`points` blob NOT NULL,
	`stderr` blob NOT NULL,
	`vector` blob NOT NULL
);
--> statement-breakpoint
CREATE TABLE `artist_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`artist_id` integer NOT NULL,
	`date` text NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`visible` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `artist_events_artist` ON `artist_events` (`artist_id`,`date`);--> statement-breakpoint
CREATE TABLE `artists` (
	`id` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`name` text NOT NULL,
	`synonyms` text DEFAULT '' NOT NULL,
	`nationality` text NOT NULL,
	`birth` integer,
	`death` integer,
	`bio` text NOT NULL,
	`long_bio` text NOT NULL,
	`is_top` integer NOT NULL,
	`photo_image_id` integer,
	`total_sales` real NOT NULL,
	`market_cap` real NOT NULL,
	`max_price` real,
	`min_price` real,
	`price_momentum_percentage_12mo` real,
	`price_momentum_percentage_5y` real,
	`artworks_count` integer NOT NULL,
	`recent_lots_count` integer NOT NULL,
	`total_sales_lots_1yr` integer NOT NULL,
	`total_sales_price_median_1yr` real,
	`lots_count` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artists_uid` ON `artists` (`uid`);--> statement-breakpoint
CREATE INDEX `artists_market_cap` ON `artists` (`market_cap`);--> statement-breakpoint
CREATE INDEX `artists_total_sales` ON `artists` (`total_sales`);--> statement-breakpoint
CREATE INDEX `artists_name` ON `artists` (`name`);--> statement-breakpoint
CREATE TABLE `artworks` (
	`id` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`slug` text NOT NULL,
	`artist_id` integer NOT NULL,
	`title` text NOT NULL,
	`category_id` integer NOT NULL,
	`medium` text NOT NULL,
	`material_ids` text NOT NULL,
	`substrate_id` integer,
	`creation_year` integer,
	`height_cm` real,
	`width_cm` real,
	`depth_cm` real,
	`size_bucket` text NOT NULL,
	`edition_group_id` integer,
	`edition_number` integer,
	`edition_size` integer,
	`image_id` integer,
	`lots_count` integer NOT NULL,
	`last_lot_status` text NOT NULL,
	`date_last_upcoming` text,
	`date_last_sold` text,
	`currency` text NOT NULL,
	`last_hammer_usd` real,
	`last_premium_usd` real,
	`estimate_usd` real,
	`estimate_min_usd` real,
	`estimate_max_usd` real,
	`price_momentum_12mo` real,
	`price_change_12mo` real,
	`price_momentum_24mo` real,
	`price_change_24mo` real,
	`cagr` real,
	`artist_market_cap` real NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `artworks_uid` ON `artworks` (`uid`);--> statement-breakpoint
CREATE INDEX `artworks_artist` ON `artworks` (`artist_id`,`creation_year`);--> statement-breakpoint
CREATE INDEX `artworks_estimate` ON `artworks` (`estimate_usd`);--> statement-breakpoint
CREATE INDEX `artworks_last_sold` ON `artworks` (`date_last_sold`);--> statement-breakpoint
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
CREATE TABLE `benchmark_series` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`synthetic` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `benchmarks` (
	`series` text NOT NULL,
	`month` text NOT NULL,
	`value` real NOT NULL,
	PRIMARY KEY(`series`, `month`)
);
--> statement-breakpoint
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
CREATE TABLE `fx_rates` (
	`code` text NOT NULL,
	`day` text NOT NULL,
	`usd_per_unit` real NOT NULL,
	PRIMARY KEY(`code`, `day`)
);
--> statement-breakpoint
CREATE TABLE `images` (
	`id` integer PRIMARY KEY NOT NULL,
	`artwork_id` integer,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`kind` text NOT NULL,
	`seed` integer,
	`path` text
);
--> statement-breakpoint
CREATE TABLE `lots` (
	`id` integer PRIMARY KEY NOT NULL,
	`sale_id` integer NOT NULL,
	`artwork_id` integer NOT NULL,
	`artist_id` integer NOT NULL,
	`house_id` integer NOT NULL,
	`lot_num` text NOT NULL,
	`lot_seq` integer NOT NULL,
	`status` text NOT NULL,
	`sale_status` text NOT NULL,
	`sale_datetime` text NOT NULL,
	`location_id` integer NOT NULL,
	`creation_year` integer,
	`is_top` integer DEFAULT false NOT NULL,
	`reserve_mark` integer DEFAULT false NOT NULL,
	`third_party_mark` integer DEFAULT false NOT NULL,
	`currency` text NOT NULL,
	`hammer` real,
	`estimate_min` real,
	`estimate_max` real,
	`premium` real,
	`hammer_usd` real,
	`estimate_min_usd` real,
	`estimate_max_usd` real,
	`premium_usd` real,
	`notes` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `lots_sale` ON `lots` (`sale_id`,`lot_seq`);--> statement-breakpoint
CREATE INDEX `lots_artist_date` ON `lots` (`artist_id`,`sale_datetime`);--> statement-breakpoint
CREATE INDEX `lots_artwork` ON `lots` (`artwork_id`,`sale_datetime`);--> statement-breakpoint
CREATE INDEX `lots_date` ON `lots` (`sale_datetime`);--> statement-breakpoint
CREATE TABLE `market_index` (
	`month` text PRIMARY KEY NOT NULL,
	`value` real NOT NULL,
	`lots` integer NOT NULL
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
CREATE TABLE `repeat_pairs` (
	`artist_id` integer NOT NULL,
	`artwork_id` integer NOT NULL,
	`buy_lot_id` integer NOT NULL,
	`sell_lot_id` integer NOT NULL,
	`buy_date` text NOT NULL,
	`sell_date` text NOT NULL,
	`period_months` integer NOT NULL,
	`car` real NOT NULL,
	PRIMARY KEY(`artist_id`, `sell_lot_id`)
);
--> statement-breakpoint
CREATE TABLE `sales` (
	`id` integer PRIMARY KEY NOT NULL,
	`house_id` integer NOT NULL,
	`name` text NOT NULL,
	`location_id` integer NOT NULL,
	`location` text NOT NULL,
	`currency` text NOT NULL,
	`is_online` integer NOT NULL,
	`is_bids_streaming` integer NOT NULL,
	`status` text NOT NULL,
	`start_datetime` text NOT NULL,
	`end_datetime` text NOT NULL,
	`lots_count` integer NOT NULL,
	`lots_count_not_sold` integer NOT NULL,
	`lots_count_sold_above_estimations` integer NOT NULL,
	`lots_count_sold_within_estimations` integer NOT NULL,
	`lots_count_sold_below_estimations` integer NOT NULL,
	`hammer_total` real NOT NULL,
	`premium_sold_total` real NOT NULL,
	`cumulative_total` real NOT NULL,
	`hammer_total_usd` real NOT NULL,
	`premium_sold_total_usd` real NOT NULL,
	`cumulative_total_usd` real NOT NULL,
	`hammer_low_estimate` real NOT NULL,
	`hammer_high_estimate` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sales_house_start` ON `sales` (`house_id`,`start_datetime`);--> statement-breakpoint
CREATE INDEX `sales_start` ON `sales` (`start_datetime`);--> statement-breakpoint
CREATE TABLE `src_artists` (
	`id` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`name` text NOT NULL,
	`synonyms` text DEFAULT '' NOT NULL,
	`nationality` text NOT NULL,
	`birth` integer,
	`death` integer,
	`bio` text DEFAULT '' NOT NULL,
	`long_bio` text DEFAULT '' NOT NULL,
	`is_top` integer DEFAULT false NOT NULL,
	`photo_image_id` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `src_artists_uid` ON `src_artists` (`uid`);--> statement-breakpoint
CREATE TABLE `src_artworks` (
	`id` integer PRIMARY KEY NOT NULL,
	`uid` text NOT NULL,
	`artist_id` integer NOT NULL,
	`title` text NOT NULL,
	`category_id` integer NOT NULL,
	`medium` text NOT NULL,
	`material_ids` text DEFAULT '' NOT NULL,
	`substrate_id` integer,
	`creation_year` integer,
	`height_cm` real,
	`width_cm` real,
	`depth_cm` real,
	`signed` integer DEFAULT false NOT NULL,
	`edition_group_id` integer,
	`edition_number` integer,
	`edition_size` integer,
	`image_id` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `src_artworks_uid` ON `src_artworks` (`uid`);--> statement-breakpoint
CREATE INDEX `src_artworks_artist` ON `src_artworks` (`artist_id`);--> statement-breakpoint
CREATE TABLE `src_sales` (
	`id` integer PRIMARY KEY NOT NULL,
	`house_id` integer NOT NULL,
	`name` text NOT NULL,
	`location_id` integer NOT NULL,
	`location` text NOT NULL,
	`currency` text NOT NULL,
	`is_online` integer NOT NULL,
	`is_bids_streaming` integer NOT NULL,
	`status` text NOT NULL,
	`start_datetime` text NOT NULL,
	`end_datetime` text NOT NULL
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
