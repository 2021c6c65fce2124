/**
 * account.db: everything that belongs to users. A market rebuild never touches this file.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const plans = sqliteTable("plans", {
  slug: text("slug").primaryKey(),
  displayName: text("display_name").notNull(),
  duLimit: real("du_limit").notNull(),
  periodDays: integer("period_days").notNull(),
  rpsLimit: integer("rps_limit").notNull(),
  rpmLimit: integer("rpm_limit").notNull(),
  throttleMultiplier: real("throttle_multiplier").notNull().default(1),
  priceUsd: real("price_usd").notNull(),
  /** JSON object: entitlements and the secondary windows (see src/accounts/plans.ts). */
  features: text("features").notNull().default("{}"),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  planSlug: text("plan_slug").notNull().references(() => plans.slug),
  /** First day of the user's first entitlement period (YYYY-MM-DD, UTC); periods follow back to back. */
  periodAnchor: text("period_anchor").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Public key id, part of the key itself, used to find the row. */
    kid: text("kid").notNull(),
    userId: integer("user_id").notNull().references(() => users.id),
    name: text("name").notNull(),
    /** argon2id hash of the whole key; the key itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_kid").on(t.kid), index("api_keys_user").on(t.userId)],
);

/**
 * One row per metered request: the durable record behind every X-Service-DataUnits header.
 * Append-only and written on the hot path, so it carries no secondary index and no AUTOINCREMENT
 * (its rowid only grows anyway); reports read the roll-up du_daily.
 */
export const duLedger = sqliteTable("du_ledger", {
  id: integer("id").primaryKey(),
  userId: integer("user_id").notNull(),
  keyId: integer("key_id").notNull(),
  ts: integer("ts").notNull(),
  day: text("day").notNull(),
  method: text("method").notNull(),
  route: text("route").notNull(),
  status: integer("status").notNull(),
  records: integer("records").notNull(),
  du: real("du").notNull(),
});

/** Daily roll-up of the ledger, written in the same transaction: usage reports read this. */
export const duDaily = sqliteTable(
  "du_daily",
  {
    userId: integer("user_id").notNull(),
    day: text("day").notNull(),
    endpoint: text("endpoint").notNull(),
    du: real("du").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.endpoint] })],
);

/** Allowance notices (80 % and 100 % of a pool's period allowance), listed by `artmarket notices`. */
export const notices = sqliteTable(
  "notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    planSlug: text("plan_slug").notNull(),
    pool: text("pool").notNull(),
    threshold: integer("threshold").notNull(),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    duLimit: real("du_limit").notNull(),
    duConsumed: real("du_consumed").notNull(),
    projectedEop: real("projected_eop").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("notices_once").on(t.userId, t.pool, t.threshold, t.periodStart)],
);

export const accountMeta = sqliteTable("account_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull().default(sql`(unixepoch())`),
});

/** Follows: a user's followed artists, artworks, lots and sales (ids in the current market). */
export const follows = sqliteTable(
  "follows",
  {
    userId: integer("user_id").notNull(),
    /** artist | artwork | lot | sale */
    kind: text("kind").notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.targetId] }), index("follows_recent").on(t.userId, t.kind, t.createdAt)],
);

/** Shared lists of artworks or lots behind a public token. */
export const shares = sqliteTable(
  "shares",
  {
    token: text("token").primaryKey(),
    userId: integer("user_id").notNull(),
    /** artwork | lot */
    kind: text("kind").notNull(),
    /** JSON array of ids, in the order given. */
    ids: text("ids").notNull(),
    title: text("title"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("shares_user").on(t.userId)],
);
