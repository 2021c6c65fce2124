/**
 * market.db: the market snapshot (reference data now; artists, artworks, lots, sales and derived
 * metrics as the generator and importer fill it). Rebuilt whole by seed/import and swapped in by rename.
 */
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** What built this snapshot: scale, seed, counts, build time. */
export const marketMeta = sqliteTable("market_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const currencies = sqliteTable("currencies", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  symbol: text("symbol").notNull(),
  decimals: integer("decimals").notNull().default(2),
});

export const auctionHouses = sqliteTable(
  "auction_houses",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    priorityOrder: integer("priority_order").notNull(),
    isLive: integer("is_live", { mode: "boolean" }).notNull(),
    country: text("country"),
    city: text("city"),
  },
  (t) => [uniqueIndex("auction_houses_slug").on(t.slug), index("auction_houses_priority").on(t.priorityOrder, t.id)],
);

export const auctionLocations = sqliteTable(
  "auction_locations",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    currency: text("currency").notNull(),
  },
  (t) => [uniqueIndex("auction_locations_name").on(t.name)],
);

export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull(),
});

const vocabulary = (name: string) =>
  sqliteTable(name, {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    label: text("label").notNull(),
  });

export const materials = vocabulary("materials");
export const substrates = vocabulary("substrates");
export const surfaces = vocabulary("surfaces");
export const damages = vocabulary("damages");
