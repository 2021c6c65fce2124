/**
 * account.db: everything that belongs to users. A market rebuild never touches this file.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const plans = sqliteTable("plans", {
  slug: text("slug").primaryKey(),
  displayName: text("display_name").notNull(),
  duLimit: real("du_limit").notNull(),
  periodDays: integer("period_days").notNull(),
  rpsLimit: integer("rps_limit").notNull(),
  rpmLimit: integer("rpm_limit").notNull(),
  throttleMultiplier: real("throttle_multiplier").notNull().default(1),
  priceUsd: real("price_usd").notNull(),
  /** JSON object: entitlements and the secondary windows (see src/serve/accounts/plans.ts). */
  features: text("features").notNull().default("{}"),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    planSlug: text("plan_slug")
      .notNull()
      .references(() => plans.slug),
    /** First day of the user's first entitlement period (YYYY-MM-DD, UTC); periods follow back to back. */
    periodAnchor: text("period_anchor").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The address a user signs in with, lower-cased; null for a user made by `keys create` (keys only). */
    email: text("email"),
    /** member | admin */
    role: text("role").notNull().default("member"),
    /** argon2id hash of the password; null until one is set (a set-password link, or never). */
    passwordHash: text("password_hash"),
    /** When the user was disabled: every key and session refused from then on. */
    disabledAt: integer("disabled_at"),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Public key id, part of the key itself, used to find the row. */
    kid: text("kid").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** argon2id hash of the whole key; the key itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    /** full | read (GET and HEAD only) */
    scope: text("scope").notNull().default("full"),
    /** When the key stops working (its own expiry, or the end of a rotation's overlap); null: never. */
    expiresAt: integer("expires_at"),
  },
  (t) => [uniqueIndex("api_keys_kid").on(t.kid), index("api_keys_user").on(t.userId)],
);

/**
 * Console sessions: the cookie carries a random token, this row its SHA-256 (the token itself is
 * never stored). Idle and absolute expiry (src/serve/accounts/sessions.ts); signing out removes
 * the row, signing out everywhere every row of the user.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** The token every state-changing call of the session carries in X-CSRF-Token. */
    csrf: text("csrf").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    address: text("address"),
    /** password | oidc */
    method: text("method").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** One-time set-password links (`users create`, an admin's reset): the token's SHA-256, until used or expired. */
export const passwordTokens = sqliteTable(
  "password_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_tokens_user").on(t.userId)],
);

/**
 * The audit log, append-only: sign-ins and their failures, keys made, rotated and revoked, users
 * made and changed (plan, role, disabled, password). Who (user and key, or the CLI), what, when,
 * from which address; admins read it (GET /v1/admin/audit).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ts: integer("ts").notNull(),
    /** The user who acted (null: the CLI, or a sign-in by an unknown address). */
    actorUserId: integer("actor_user_id"),
    actorKeyId: integer("actor_key_id"),
    /** session | key | cli */
    via: text("via").notNull(),
    action: text("action").notNull(),
    /** user | key | session */
    targetKind: text("target_kind"),
    targetId: integer("target_id"),
    address: text("address"),
    /** JSON object: what changed. */
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [index("audit_log_ts").on(t.ts)],
);

/**
 * One row whose counter moves (by triggers, migration 0004) whenever something a running server
 * caches about keys and plans changes: a key revoked or removed, a user's plan or period anchor,
 * a plan's row. Every worker and node compares it with what it saw last (one indexed read) and
 * drops its cached key verdicts and plan limits when it moved.
 */
export const accountEpoch = sqliteTable("account_epoch", {
  id: integer("id").primaryKey(),
  n: integer("n").notNull(),
});

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

/**
 * The daily roll-up by key, written with the ledger's rows (account.db: in the ledger's
 * transaction; PostgreSQL: by a statement trigger on du_ledger): `/v1/usage?group_by=key`.
 */
export const duKeyDaily = sqliteTable(
  "du_key_daily",
  {
    userId: integer("user_id").notNull(),
    day: text("day").notNull(),
    keyId: integer("key_id").notNull(),
    du: real("du").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.keyId] })],
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

// ---------------------------------------------------------------- collectables

/**
 * Collectables: works in a user's own collection. Reference ids (artist, category, materials, …)
 * point into the current market and are checked on write; the record itself never depends on a
 * market rebuild. Children go with their collectable (ON DELETE CASCADE, foreign keys are on).
 */
export const collectables = sqliteTable(
  "collectables",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: text("uid").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    artistId: integer("artist_id").notNull(),
    categoryId: integer("category_id").notNull(),
    /** The market artwork the record was seeded from (or linked to); its estimate is the machine price. */
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
    measurementsHeight: real("measurements_height"),
    measurementsWidth: real("measurements_width"),
    measurementsDepth: real("measurements_depth"),
    /** JSON arrays of reference ids. */
    materialIds: text("material_ids").notNull().default("[]"),
    substrateIds: text("substrate_ids").notNull().default("[]"),
    surfaceIds: text("surface_ids").notNull().default("[]"),
    damageIds: text("damage_ids").notNull().default("[]"),
    /** Owner's own value in USD; used when selected_price_type is manual. */
    manualPriceValue: real("manual_price_value"),
    /** machine | manual */
    selectedPriceType: text("selected_price_type").notNull().default("machine"),
    /**
     * The image: "upload" (an original under <data>/images/collectables/, named by image_key) or
     * "artwork" (the market image image_market_id of the suggested artwork); null without one.
     */
    imageKind: text("image_kind"),
    imageKey: text("image_key"),
    imageMarketId: integer("image_market_id"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    /** The image's embedding (Float32, little-endian), or null. */
    embedding: blob("embedding", { mode: "buffer" }),
    /** Machine estimate (USD) cached for list filters and sorts, and the market snapshot it was computed on. */
    machineEstimateUsd: real("machine_estimate_usd"),
    machineEstimateBasis: text("machine_estimate_basis"),
    valuedOn: text("valued_on"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
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
export const collectableAcquisitions = sqliteTable("collectable_acquisitions", {
  collectableId: integer("collectable_id")
    .primaryKey()
    .references(() => collectables.id, { onDelete: "cascade" }),
  date: text("date"),
  price: real("price"),
  currency: text("currency"),
  /** The price in USD at the date's reference rate (null without price, currency and date). */
  priceUsd: real("price_usd"),
  location: text("location"),
  sourceType: text("source_type"),
  sellerName: text("seller_name"),
  dealerName: text("dealer_name"),
  auctionHouseId: integer("auction_house_id"),
  auctionHouseName: text("auction_house_name"),
  useInsteadOfEstimates: integer("use_instead_of_estimates", { mode: "boolean" }).notNull().default(false),
  updatedAt: integer("updated_at").notNull(),
});

export const collectableAppraisals = sqliteTable(
  "collectable_appraisals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    value: real("value").notNull(),
    currency: text("currency").notNull(),
    valueUsd: real("value_usd").notNull(),
    date: text("date").notNull(),
    companyName: text("company_name"),
    isBestGuess: integer("is_best_guess", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("collectable_appraisals_parent").on(t.collectableId)],
);

export const collectableProvenance = sqliteTable(
  "collectable_provenance",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    owner: text("owner").notNull(),
    location: text("location"),
    yearFrom: integer("year_from"),
    yearTo: integer("year_to"),
    isUpToPresent: integer("is_up_to_present", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("collectable_provenance_parent").on(t.collectableId)],
);

/** Private sales of a collectable (not auction lots of the market). */
export const collectableSales = sqliteTable(
  "collectable_sales",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectables.id, { onDelete: "cascade" }),
    value: real("value").notNull(),
    currency: text("currency").notNull(),
    valueUsd: real("value_usd").notNull(),
    date: text("date").notNull(),
    location: text("location"),
    type: text("type"),
    auctionHouseId: integer("auction_house_id"),
    sellerName: text("seller_name"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("collectable_sales_parent").on(t.collectableId)],
);

/** A saved comp set: present only while the set has comps; updated_at is when it was last replaced. */
export const collectableCompSets = sqliteTable("collectable_comp_sets", {
  collectableId: integer("collectable_id")
    .primaryKey()
    .references(() => collectables.id, { onDelete: "cascade" }),
  updatedAt: integer("updated_at").notNull(),
});

export const collectableComps = sqliteTable(
  "collectable_comps",
  {
    collectableId: integer("collectable_id")
      .notNull()
      .references(() => collectableCompSets.collectableId, { onDelete: "cascade" }),
    /** Order as given in the PUT. */
    position: integer("position").notNull(),
    artistId: integer("artist_id").notNull(),
    artworkId: integer("artwork_id").notNull(),
    weight: real("weight").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.collectableId, t.position] })],
);

// ---------------------------------------------------------------- webhooks

/**
 * Webhook destinations: a user's URL, the event types it takes, its signing secret (Standard
 * Webhooks, `whsec_…`), and whether it is enabled (a destination that keeps failing is disabled,
 * with the reason). src/serve/webhooks/.
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    url: text("url").notNull(),
    /** JSON array of event types. */
    eventTypes: text("event_types").notNull(),
    secret: text("secret").notNull(),
    /** enabled | disabled */
    status: text("status").notNull().default("enabled"),
    disabledReason: text("disabled_reason"),
    /** Deliveries failed in a row (every retry spent); reset by a success. */
    failuresInRow: integer("failures_in_row").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhooks_user").on(t.userId)],
);

/**
 * The outbox: one row per event and destination, from its enqueueing to its success or its last
 * failed attempt. A node claims due rows (claimed_until) before it sends them, so that several
 * nodes deliver each once.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: integer("webhook_id").notNull(),
    userId: integer("user_id").notNull(),
    /** The event's id: `webhook-id`, the same on every attempt. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The JSON body sent. */
    payload: text("payload").notNull(),
    /** pending | succeeded | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    claimedUntil: integer("claimed_until").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("webhook_deliveries_due").on(t.status, t.nextAttemptAt), index("webhook_deliveries_hook").on(t.webhookId, t.id)],
);

/**
 * Each user's notifications: the market events (market.db's market_events) about what the user
 * follows, written once per user and event when a snapshot is served (the unique key makes every
 * node's fan-out write it once); GET /v1/notifications reads them. Kept 90 days.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    occurredAt: integer("occurred_at").notNull(),
    snapshotId: text("snapshot_id").notNull(),
    subjectKind: text("subject_kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    /** JSON object: the event's figures. */
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("notifications_once").on(t.userId, t.eventId), index("notifications_user").on(t.userId, t.occurredAt)],
);
