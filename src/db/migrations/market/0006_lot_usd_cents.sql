-- The lots' USD amounts as whole cents (hand-written: drizzle-kit asks whether a renamed column is
-- new). They were 2-decimal REALs, 8 bytes each on disk; an integral REAL takes 1-6 (about 1 GB
-- less at full scale, table and price indexes). The indexes follow the renamed columns.
ALTER TABLE `lots` RENAME COLUMN `hammer_usd` TO `hammer_usd_cents`;--> statement-breakpoint
ALTER TABLE `lots` RENAME COLUMN `estimate_min_usd` TO `estimate_min_usd_cents`;--> statement-breakpoint
ALTER TABLE `lots` RENAME COLUMN `estimate_max_usd` TO `estimate_max_usd_cents`;--> statement-breakpoint
ALTER TABLE `lots` RENAME COLUMN `premium_usd` TO `premium_usd_cents`;--> statement-breakpoint
UPDATE `lots` SET `hammer_usd_cents` = round(`hammer_usd_cents` * 100), `estimate_min_usd_cents` = round(`estimate_min_usd_cents` * 100),
  `estimate_max_usd_cents` = round(`estimate_max_usd_cents` * 100), `premium_usd_cents` = round(`premium_usd_cents` * 100);
