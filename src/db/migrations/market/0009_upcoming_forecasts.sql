-- The upcoming lots' forecasts (src/build/derive/upcoming.ts): the chance that the lot sells and its
-- expected hammer with an 80 % band, USD in whole dollars. Derived for upcoming lots only, null on
-- every other status; a market migrated here has them null until it is derived again. The read
-- index on sale_probability comes with the read indexes (src/db/market-indexes/lots.ts).
ALTER TABLE `lots` ADD `sale_probability` real;--> statement-breakpoint
ALTER TABLE `lots` ADD `expected_hammer_usd` real;--> statement-breakpoint
ALTER TABLE `lots` ADD `expected_hammer_usd_low` real;--> statement-breakpoint
ALTER TABLE `lots` ADD `expected_hammer_usd_high` real;