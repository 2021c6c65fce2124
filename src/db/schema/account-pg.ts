/**
 * The account store on PostgreSQL, for several nodes sharing one: the tables of account.ts with the
 * same names, columns, keys and indexes (so the store's SQL reads the same on both), plus the
 * tables that only a shared store needs (images, cross-node rate windows and hard-cap admissions).
 *
 * Types follow what the SQLite rows hold: millisecond timestamps are bigint (read back as numbers),
 * real is double precision, blob is bytea, and the boolean columns stay integer 0/1 so that rows
 * come back exactly like bun:sqlite's. The epoch's function and triggers, and rate_windows being
 * UNLOGGED, are in the custom migration 0001_account_epoch.
 */
import { sql } from "drizzle-orm";
import { bigint, customType, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

/** bytea, read and written as bytes (drizzle-orm has no built-in bytea column). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** A millisecond timestamp (Date.now()), beyond int4's range. */
const millis = (name: string) => bigint(name, { mode: "number" });

export const plans = pgTable("plans", {
  slug: text("slug").primaryKey(),
  displayName: text("display_name").notNull(),
  duLimit: doublePrecision("du_limit").notNull(),
  periodDays: integer("period_days").notNull(),
  rpsLimit: integer("rps_limit").notNull(),
  rpmLimit: integer("rpm_limit").notNull(),
  throttleMultiplier: doublePrecision("throttle_multiplier").notNull().default(1),
  priceUsd: doublePrecision("price_usd").notNull(),
  /** JSON object: entitlements and the secondary windows (see src/serve/accounts/plans.ts). */
  features: text("features").notNull().default("{}"),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    planSlug: text("plan_slug")
      .notNull()
      .references(() => plans.slug),
    /** First day of the user's first entitlement period (YYYY-MM-DD, UTC); periods follow back to back. */
    periodAnchor: text("period_anchor").notNull(),
    createdAt: millis("created_at").notNull(),
    /** The address a user signs in with, lower-cased; null for a user made by `keys create` (keys only). */
    email: text("email"),
    /** member | admin */
    role: text("role").notNull().default("member"),
    /** argon2id hash of the password; null until one is set. */
    passwordHash: text("password_hash"),
    /** When the user was disabled: every key and session refused from then on. */
    disabledAt: millis("disabled_at"),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    /** Public key id, part of the key itself, used to find the row. */
    kid: text("kid").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** argon2id hash of the whole key; the key itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: millis("created_at").notNull(),
    revokedAt: millis("revoked_at"),
    /** full | read (GET and HEAD only) */
    scope: text("scope").notNull().default("full"),
    /** When the key stops working (its own expiry, or the end of a rotation's overlap); null: never. */
    expiresAt: millis("expires_at"),
  },
  (t) => [uniqueIndex("api_keys_kid").on(t.kid), index("api_keys_user").on(t.userId)],
);

/**
 * One row whose counter moves (by triggers, migration 0001) whenever something a running server
 * caches about keys and plans changes; each move is also announced on the channel
 * artmarket_account_epoch, so every node drops its cached key verdicts and plan limits at once.
 */
/** Console sessions (account.ts). */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    csrf: text("csrf").notNull(),
    createdAt: millis("created_at").notNull(),
    lastSeenAt: millis("last_seen_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    address: text("address"),
    method: text("method").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** One-time set-password links (account.ts). */
export const passwordTokens = pgTable(
  "password_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    usedAt: millis("used_at"),
  },
  (t) => [index("password_tokens_user").on(t.userId)],
);

/** The audit log, append-only (account.ts). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    ts: millis("ts").notNull(),
    actorUserId: integer("actor_user_id"),
    actorKeyId: integer("actor_key_id"),
    via: text("via").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: integer("target_id"),
    address: text("address"),
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [index("audit_log_ts").on(t.ts)],
);

export const accountEpoch = pgTable("account_epoch", {
  id: integer("id").primaryKey(),
  n: bigint("n", { mode: "number" }).notNull(),
});

/** One row per metered request. Append-only on the hot path: no secondary index. */
export const duLedger = pgTable("du_ledger", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  userId: integer("user_id").notNull(),
  keyId: integer("key_id").notNull(),
  ts: millis("ts").notNull(),
  day: text("day").notNull(),
  method: text("method").notNull(),
  route: text("route").notNull(),
  status: integer("status").notNull(),
  records: integer("records").notNull(),
  du: doublePrecision("du").notNull(),
});

/** Daily roll-up of the ledger, written in the same transaction: usage reports read this. */
export const duDaily = pgTable(
  "du_daily",
  {
    userId: integer("user_id").notNull(),
    day: text("day").notNull(),
    endpoint: text("endpoint").notNull(),
    du: doublePrecision("du").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.endpoint] })],
);

/** Allowance notices (80 % and 100 % of a pool's period allowance), listed by `artmarket notices`. */
/** The daily roll-up by key (account.ts); written by a statement trigger on du_ledger (migration 0007). */
export const duKeyDaily = pgTable(
  "du_key_daily",
  {
    userId: integer("user_id").notNull(),
    day: text("day").notNull(),
    keyId: integer("key_id").notNull(),
    du: doublePrecision("du").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.keyId] })],
);

export const notices = pgTable(
  "notices",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull(),
    planSlug: text("plan_slug").notNull(),
    pool: text("pool").notNull(),
    threshold: integer("threshold").notNull(),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    duLimit: doublePrecision("du_limit").notNull(),
    duConsumed: doublePrecision("du_consumed").notNull(),
    projectedEop: doublePrecision("projected_eop").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [uniqueIndex("notices_once").on(t.userId, t.pool, t.threshold, t.periodStart)],
);

export const accountMeta = pgTable("account_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  /** Seconds since the epoch, like SQLite's unixepoch() default. */
  updatedAt: bigint("updated_at", { mode: "number" }).notNull().default(sql`(extract(epoch from now())::bigint)`),
});

/** Follows: a user's followed artists, artworks, lots and sales (ids in the current market). */
export const follows = pgTable(
  "follows",
  {
    userId: integer("user_id").notNull(),
    /** artist | artwork | lot | sale */
    kind: text("kind").notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.targetId] }), index("follows_recent").on(t.userId, t.kind, t.createdAt)],
);

/** Shared lists of artworks or lots behind a public token. */
export const shares = pgTable(
  "shares",
  {
    token: text("token").primaryKey(),
    userId: integer("user_id").notNull(),
    /** artwork | lot */
    kind: text("kind").notNull(),
    /** JSON array of ids, in the order given. */
    ids: text("ids").notNull(),
    title: text("title"),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (t) => [index("shares_user").on(t.userId)],
);

// ---------------------------------------------------------------- collectables

/** Collectables: works in a user's own collection (see account.ts); children go with their collectable. */
export const collectables = pgTable(
  "collectables",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    uid: text("uid").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    artistId: integer("artist_id").notNull(),
    categoryId: integer("category_id").notNull(),
    suggestedArtworkId: integer("suggested_artwork_id"),
    title: text("title").notNull().default(""),
    creationYear: integer("creation_year"),
    /** unique | edition */
    editionUniqueType: text("edition_unique_type").notNull(),
    editionNumber: integer("edition_number"),
    editionSize: integer("edition_size"),
    condition: text("condition"),
    signature: text("signature"),
    currentLocation: text("current_location"),
    /** cm | in */
    measurementsUnit: text("measurements_unit").notNull().default("cm"),
    measurementsHeight: doublePrecision("measurements_height"),
    measurementsWidth: doublePrecision("measurements_width"),
    measurementsDepth: doublePrecision("measurements_depth"),
    /** JSON arrays of reference ids. */
    materialIds: text("material_ids").notNull().default("[]"),
    substrateIds: text("substrate_ids").notNull().default("[]"),
    surfaceIds: text("surface_ids").notNull().default("[]"),
    damageIds: text("damage_ids").notNull().default("[]"),
    manualPriceValue: doublePrecision("manual_price_value"),
    /** machine | manual */
    selectedPriceType: text("selected_price_type").notNull().default("machine"),
    /** "upload" (bytes in collectable_images under image_key) or "artwork" (image_market_id); null without one. */
    imageKind: text("image_kind"),
    imageKey: text("image_key"),
    imageMarketId: integer("image_market_id"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    /** The image's embedding (Float32, little-endian), or null. */
    embedding: bytea("embedding"),
    machineEstimateUsd: doublePrecision("machine_estimate_usd"),
    machineEstimateBasis: text("machine_estimate_basis"),
    valuedOn: text("valued_on"),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("collectables_uid").on(t.uid),
    uniqueIndex("collectables_image_key").on(t.imageKey),
    index("collectables_user_created").on(t.userId, t.createdAt),
    index("collectables_user_artist").on(t.userId, t.artistId),
    index("collectables_user_category").on(t.userId, t.categoryId),
  ],
);

/** The acquisition of a collectable: one row per collectable, created with it. */
export const collectableAcquisitions = pgTable("collectable_acquisitions", {
  collectableId: integer("collectable_id")
    .primaryKey()
    .references(() => collectables.id, { onDelete: "cascade" }),
  date: text("date"),
  price: doublePrecision("price"),
  currency: text("currency"),
  priceUsd: doublePrecision("price_usd"),
  location: text("location"),
  sourceType: text("source_type"),
  sellerName: text("seller_name"),
  dealerName: text("dealer_name"),
  auctionHouseId: integer("auction_house_id"),
  auctionHouseName: text("auction_house_name"),
  /** 0 | 1, as in SQLite. */
  useInsteadOfEstimates: integer("use_instead_of_estimates").notNull().default(0),
  updatedAt: millis("updated_at").notNull(),
});

export const collectableAppraisals = pgTable(
  "collectable_appraisals",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    value: doublePrecision("value").notNull(),
    currency: text("currency").notNull(),
    valueUsd: doublePrecision("value_usd").notNull(),
    date: text("date").notNull(),
    companyName: text("company_name"),
    /** 0 | 1, as in SQLite. */
    isBestGuess: integer("is_best_guess").notNull().default(0),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [index("collectable_appraisals_parent").on(t.collectableId)],
);

export const collectableProvenance = pgTable(
  "collectable_provenance",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    owner: text("owner").notNull(),
    location: text("location"),
    yearFrom: integer("year_from"),
    yearTo: integer("year_to"),
    /** 0 | 1, as in SQLite. */
    isUpToPresent: integer("is_up_to_present").notNull().default(0),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [index("collectable_provenance_parent").on(t.collectableId)],
);

/** Private sales of a collectable (not auction lots of the market). */
export const collectableSales = pgTable(
  "collectable_sales",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    value: doublePrecision("value").notNull(),
    currency: text("currency").notNull(),
    valueUsd: doublePrecision("value_usd").notNull(),
    date: text("date").notNull(),
    location: text("location"),
    type: text("type"),
    auctionHouseId: integer("auction_house_id"),
    sellerName: text("seller_name"),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [index("collectable_sales_parent").on(t.collectableId)],
);

/** A saved comp set: present only while the set has comps; updated_at is when it was last replaced. */
export const collectableCompSets = pgTable("collectable_comp_sets", {
  collectableId: integer("collectable_id")
    .primaryKey()
    .references(() => collectables.id, { onDelete: "cascade" }),
  updatedAt: millis("updated_at").notNull(),
});

export const collectableComps = pgTable(
  "collectable_comps",
  {
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectableCompSets.collectableId, { onDelete: "cascade" }),
    /** Order as given in the PUT. */
    position: integer("position").notNull(),
    artistId: integer("artist_id").notNull(),
    artworkId: integer("artwork_id").notNull(),
    weight: doublePrecision("weight").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.collectableId, t.position] })],
);

// ---------------------------------------------------------------- PostgreSQL only

/** Originals of uploaded collectable images, so that any node serves any image. */
export const collectableImages = pgTable("collectable_images", {
  imageKey: text("image_key").primaryKey(),
  bytes: bytea("bytes").notNull(),
  createdAt: millis("created_at").notNull(),
});

/**
 * Cross-node request-rate counters: the current second's and minute's window per user. UNLOGGED
 * (migration 0001): a crash loses at most a minute of counts, and no write goes to the WAL.
 */
export const rateWindows = pgTable("rate_windows", {
  userId: integer("user_id").primaryKey(),
  second: bigint("second", { mode: "number" }).notNull(),
  perSecond: integer("per_second").notNull(),
  minute: bigint("minute", { mode: "number" }).notNull(),
  perMinute: integer("per_minute").notNull(),
});

/**
 * Each account's consumption in the windows of its latest ledger batch (its billing period, day
 * and month), what du_daily sums to for them: artmarket_ledger_commit adds a batch to the row when
 * the windows are the row's and counts them again from du_daily when they are not (migration
 * 0012), so a batch's cost does not grow with the days and endpoints of the period. UNLOGGED: a
 * crash empties it, and the next batch of each account counts again.
 */
export const duTotals = pgTable("du_totals", {
  userId: integer("user_id").primaryKey(),
  periodStart: text("period_start").notNull(),
  periodEnd: text("period_end").notNull(),
  periodDu: doublePrecision("period_du").notNull(),
  day: text("day").notNull(),
  dayDu: doublePrecision("day_du").notNull(),
  monthStart: text("month_start").notNull(),
  monthEnd: text("month_end").notNull(),
  monthDu: doublePrecision("month_du").notNull(),
});

/** Calls admitted under a hard cap, across nodes, each holding its worst case until it ends or expires. */
export const capAdmissions = pgTable(
  "cap_admissions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull(),
    maxDu: doublePrecision("max_du").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (t) => [index("cap_admissions_user").on(t.userId)],
);

// ---------------------------------------------------------------- webhooks (account.ts)

export const webhooks = pgTable(
  "webhooks",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    url: text("url").notNull(),
    eventTypes: text("event_types").notNull(),
    secret: text("secret").notNull(),
    status: text("status").notNull().default("enabled"),
    disabledReason: text("disabled_reason"),
    failuresInRow: integer("failures_in_row").notNull().default(0),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (t) => [index("webhooks_user").on(t.userId)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    webhookId: integer("webhook_id").notNull(),
    userId: integer("user_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: text("payload").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: millis("next_attempt_at").notNull(),
    claimedUntil: millis("claimed_until").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: millis("created_at").notNull(),
    finishedAt: millis("finished_at"),
  },
  (t) => [index("webhook_deliveries_due").on(t.status, t.nextAttemptAt), index("webhook_deliveries_hook").on(t.webhookId, t.id)],
);

/** Each user's notifications (account.ts). */
export const notifications = pgTable(
  "notifications",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    occurredAt: millis("occurred_at").notNull(),
    snapshotId: text("snapshot_id").notNull(),
    subjectKind: text("subject_kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    data: text("data").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [uniqueIndex("notifications_once").on(t.userId, t.eventId), index("notifications_user").on(t.userId, t.occurredAt)],
);
