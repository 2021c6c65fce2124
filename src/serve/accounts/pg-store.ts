/**
 * The account store over PostgreSQL, shared by several nodes: the same methods and answers as
 * `SqliteAccountStore` (store.ts), over the tables of the account-pg migrations (the same table and
 * column names as account.db; millisecond timestamps as bigint, boolean columns as integer 0/1,
 * the embedding as bytea) through SyncPg, whose statements are synchronous like bun:sqlite's.
 *
 * Where the SQL differs from SQLite's:
 * - SQLite's scalar `max(a, b)` is `greatest(a, b)`;
 * - `count` and `sum` are cast so that they come back as numbers (PostgreSQL widens them to
 *   bigint or numeric, and numeric comes back as text);
 * - text is ordered with `COLLATE "C"` where the order is part of the answer (plan slugs, usage
 *   labels): SQLite compares bytes, PostgreSQL's default collation may not;
 * - JS booleans are bound as 0/1 (the boolean columns are integers, which refuse a boolean).
 *
 * Keys and plans are the statements of keys.ts and plans.ts (which run over a bun:sqlite
 * connection) written again here, with their helpers (key generation, argon2, plan parsing) shared.
 * The ledger and the key verifier are the PostgreSQL ones of pg-hot.ts.
 */
import { migratePg } from "../../db/pg/migrate";
import { type PgBind, SyncPg } from "../../db/pg/sync-client";
import { FOLLOW_KINDS, type FollowKind } from "../../db/follows";
import { SHARE_LIFETIME_DAYS, type Share, type ShareKind } from "../../db/shares";
import { today } from "../../market/time";
import { type CreatedKey, hashKey, KeyError, type KeyListing, type KeyRow, type KeyVerifier, type KeyVerifierOptions, randomKey } from "./keys";
import type { LedgerOptions, MeteringLedger } from "./ledger";
import { closeAsyncClient, pgKeyVerifier, pgLedger } from "./pg-hot";
import { type Bind, marks, SqlAccountStore } from "./sql-store";
import { DEFAULT_PLANS, type Plan, type PlanRow, planFromRow } from "./plans";
import type { AccountStore, FollowedRow, NoticeListing, ShareRow, UsageBucket } from "./store";

/** The largest id of an integer (int4) identity column. */
const INT4_MAX = 2_147_483_647;

/** A value as PostgreSQL takes it: booleans as the 0/1 of the integer columns that keep them. */
const bind = (v: Bind): PgBind => (typeof v === "boolean" ? (v ? 1 : 0) : v);

/** A plans row as PostgreSQL answers `SELECT *` (snake_case). */
type PlanSqlRow = Omit<Plan, "features"> & { features: string; sort_order: number };

const planOf = (r: PlanSqlRow): Plan =>
  planFromRow({
    slug: r.slug,
    displayName: r.display_name,
    duLimit: r.du_limit,
    periodDays: r.period_days,
    rpsLimit: r.rps_limit,
    rpmLimit: r.rpm_limit,
    throttleMultiplier: r.throttle_multiplier,
    priceUsd: r.price_usd,
    features: r.features,
    sortOrder: r.sort_order,
  } satisfies PlanRow);

/** How many users' follows one store keeps a copy of for the marks (least recently used dropped first). */
const FOLLOWS_CACHED = 512;

/** The store over PostgreSQL (one SyncPg connection). */
export class PgAccountStore extends SqlAccountStore implements AccountStore {
  readonly kind = "postgres" as const;
  protected readonly greatest = "greatest" as const;
  protected readonly usageCasts = { count: "::bigint", sum: "::double precision" };
  /** Copies of users' follows (`kind:id`) for followedAmong, with the follows version they were read at. */
  private readonly followCopies = new Map<number, { version: number; keys: Set<string> }>();

  constructor(readonly pg: SyncPg) {
    super();
  }

  /** Connects (listening for the account epoch), brings the schema to this build's, and returns the store. */
  static open(url: string): PgAccountStore {
    const pg = new SyncPg(url, { listenEpoch: true });
    try {
      migratePg(pg);
    } catch (err) {
      pg.close();
      throw err;
    }
    return new PgAccountStore(pg);
  }

  // ---------------------------------------------------------------- statements (booleans bound as 0/1)

  protected all<T>(sql: string, ...params: Bind[]): T[] {
    return this.pg.all<T>(sql, ...params.map(bind));
  }

  protected get<T>(sql: string, ...params: Bind[]): T | null {
    return this.pg.get<T>(sql, ...params.map(bind));
  }

  protected run(sql: string, ...params: Bind[]): number {
    return this.pg.run(sql, ...params.map(bind));
  }

  // ---------------------------------------------------------------- users & keys

  async createUserWithKey(planSlug: string, name?: string): Promise<CreatedKey> {
    return (await this.insertUserWithKey(planSlug, name, false))!;
  }

  createFirstUser(planSlug: string, name?: string): Promise<CreatedKey | null> {
    return this.insertUserWithKey(planSlug, name, true);
  }

  /** A user and its key; with `onlyIfNoUsers`, none when the store has a user (nodes starting together make one first user). */
  private async insertUserWithKey(planSlug: string, name: string | undefined, onlyIfNoUsers: boolean): Promise<CreatedKey | null> {
    if (onlyIfNoUsers && this.hasUsers()) return null;
    if (!this.getPlan(planSlug)) {
      const known = this.all<{ slug: string }>('SELECT slug FROM plans ORDER BY sort_order, slug COLLATE "C"');
      throw new KeyError(`unknown plan "${planSlug}" (plans: ${known.map((p) => p.slug).join(", ")})`);
    }
    const { kid, key } = randomKey();
    const keyHash = await hashKey(key);
    const now = Date.now();
    const userName = name?.trim() || `${planSlug} user`;
    const ids = this.transaction(() => {
      if (onlyIfNoUsers) {
        // one first user for all the nodes: the check and the insert under one lock
        this.get("SELECT pg_advisory_xact_lock(7040364, 0)");
        if (this.hasUsers()) return null;
      }
      const user = this.get<{ id: number }>(
        "INSERT INTO users (name, plan_slug, period_anchor, created_at) VALUES (?, ?, ?, ?) RETURNING id",
        userName,
        planSlug,
        today(now),
        now,
      )!;
      const row = this.get<{ id: number }>(
        "INSERT INTO api_keys (kid, user_id, name, hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
        kid,
        user.id,
        userName,
        keyHash,
        now,
      )!;
      return { userId: user.id, keyId: row.id };
    });
    return ids && { ...ids, kid, key, plan: planSlug };
  }

  findKeyByKid(kid: string): KeyRow | null {
    return this.get<KeyRow>(
      `SELECT k.id AS key_id, k.hash, k.revoked_at, u.id AS user_id, u.name AS user_name, u.plan_slug, u.period_anchor
         FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.kid = ?`,
      kid,
    );
  }

  listKeys(): KeyListing[] {
    return this.all<{ id: number; kid: string; user_id: number; name: string; plan: string; created_at: number; revoked_at: number | null }>(
      `SELECT k.id, k.kid, k.user_id, k.name, u.plan_slug AS plan, k.created_at, k.revoked_at
         FROM api_keys k JOIN users u ON u.id = k.user_id ORDER BY k.id`,
    ).map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
      revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
    }));
  }

  revokeKey(idOrKid: string): boolean {
    const now = Date.now();
    if (/^\d+$/.test(idOrKid)) {
      const id = Number(idOrKid);
      // ids are integer (int4): PostgreSQL refuses a larger number rather than matching no row
      if (id > INT4_MAX) return false;
      return this.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, id) > 0;
    }
    return this.run("UPDATE api_keys SET revoked_at = ? WHERE kid = ? AND revoked_at IS NULL", now, idOrKid) > 0;
  }

  hasUsers(): boolean {
    return this.get("SELECT 1 AS one FROM users LIMIT 1") !== null;
  }

  /** The account epoch as SyncPg last heard it (notified by the triggers, polled as a fallback). */
  dataVersion(): number {
    return this.pg.epoch();
  }

  keyVerifier(onChange?: () => void, options?: KeyVerifierOptions): KeyVerifier {
    return pgKeyVerifier(this, onChange, options);
  }

  // ---------------------------------------------------------------- plans

  getPlan(slug: string): Plan | null {
    const row = this.get<PlanSqlRow>("SELECT * FROM plans WHERE slug = ?", slug);
    return row ? planOf(row) : null;
  }

  listPlans(): Plan[] {
    return this.all<PlanSqlRow>('SELECT * FROM plans ORDER BY sort_order, slug COLLATE "C"').map(planOf);
  }

  seedPlans(): void {
    const params: Bind[] = [];
    DEFAULT_PLANS.forEach((p, i) =>
      params.push(p.slug, p.display_name, p.du_limit, p.period_days, p.rps_limit, p.rpm_limit, p.throttle_multiplier, p.price_usd, JSON.stringify(p.features), i),
    );
    this.run(
      `INSERT INTO plans (slug, display_name, du_limit, period_days, rps_limit, rpm_limit, throttle_multiplier, price_usd, features, sort_order)
       VALUES ${DEFAULT_PLANS.map(() => `(${marks(10)})`).join(", ")} ON CONFLICT (slug) DO NOTHING`,
      ...params,
    );
  }

  // ---------------------------------------------------------------- ledger and usage

  ledger(options?: LedgerOptions): MeteringLedger {
    return pgLedger(this, options);
  }

  consumedBetween(userId: number, from: string, to: string): number {
    return this.get<{ du: number | null }>("SELECT sum(du)::double precision AS du FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ?", userId, from, to)?.du ?? 0;
  }

  usageBreakdown(userId: number, from: string, to: string, by: "day" | "month" | "endpoint"): UsageBucket[] {
    const label = by === "month" ? "substr(day, 1, 7)" : by;
    // grouped by position (PostgreSQL does not group by an output alias inside an expression)
    return this.all<UsageBucket>(
      `SELECT ${label} AS label, sum(du)::double precision AS du, sum(requests)::bigint AS requests
       FROM du_daily WHERE user_id = ? AND day BETWEEN ? AND ? GROUP BY 1 ORDER BY ${label} COLLATE "C"`,
      userId,
      from,
      to,
    );
  }

  // ---------------------------------------------------------------- notices

  listNotices(): NoticeListing[] {
    return this.all<NoticeListing>(
      `SELECT n.id, n.user_id, u.name AS user_name, n.plan_slug AS plan, n.pool, n.threshold, n.period_start, n.period_end,
              n.du_limit, n.du_consumed, n.projected_eop, n.created_at
       FROM notices n JOIN users u ON u.id = n.user_id ORDER BY n.id`,
    );
  }

  // ---------------------------------------------------------------- follows

  follow(userId: number, kind: FollowKind, targetId: number): void {
    this.run("INSERT INTO follows (user_id, kind, target_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", userId, kind, targetId, Date.now());
    this.pg.touchFollows(userId);
  }

  unfollow(userId: number, kind: FollowKind, targetId: number): void {
    this.run("DELETE FROM follows WHERE user_id = ? AND kind = ? AND target_id = ?", userId, kind, targetId);
    this.pg.touchFollows(userId);
  }

  /**
   * The marks of a page. A copy of the user's follows serves while the follows version SyncPg keeps
   * for the user (from notifications) has not moved since it was read, so most pages ask nothing;
   * without a version (the listener not up yet), the store is asked.
   */
  followedAmong(userId: number | null, kind: FollowKind, ids: readonly number[]): Set<number> {
    if (userId === null || ids.length === 0) return new Set();
    // the version is read before the rows: a change made meanwhile moves it again, and the copy is not reused
    const version = this.pg.followsVersion(userId);
    if (version === null) {
      const rows = this.all<{ id: number }>(`SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? AND target_id IN (${marks(ids.length)})`, userId, kind, ...ids);
      return new Set(rows.map((r) => r.id));
    }
    let copy = this.followCopies.get(userId);
    this.followCopies.delete(userId); // touched: now the most recently used
    if (copy?.version !== version) {
      const rows = this.all<{ kind: string; target_id: number }>("SELECT kind, target_id FROM follows WHERE user_id = ?", userId);
      copy = { version, keys: new Set(rows.map((r) => `${r.kind}:${r.target_id}`)) };
      if (this.followCopies.size >= FOLLOWS_CACHED) this.followCopies.delete(this.followCopies.keys().next().value!);
    }
    this.followCopies.set(userId, copy);
    const keys = copy.keys;
    return new Set(ids.filter((id) => keys.has(`${kind}:${id}`)));
  }

  followedIds(userId: number, kind: FollowKind): number[] {
    return this.all<{ id: number }>("SELECT target_id AS id FROM follows WHERE user_id = ? AND kind = ? ORDER BY created_at DESC, target_id DESC", userId, kind).map((r) => r.id);
  }

  /** PostgreSQL keeps no order of insertion: `seq` is derived from the target and the kind (see FollowedRow). */
  followedRows(userId: number, kind: FollowKind): FollowedRow[] {
    const k = FOLLOW_KINDS.indexOf(kind);
    return this.all<Omit<FollowedRow, "seq">>(
      "SELECT target_id, created_at FROM follows WHERE user_id = ? AND kind = ? ORDER BY created_at DESC, target_id DESC",
      userId,
      kind,
    ).map((r) => ({ ...r, seq: r.target_id * FOLLOW_KINDS.length + k }));
  }

  // ---------------------------------------------------------------- shares

  createShare(userId: number, kind: ShareKind, ids: number[], title: string | null, now = Date.now()): Share {
    const token = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");
    const expiresAt = now + SHARE_LIFETIME_DAYS * 86_400_000;
    this.run(
      "INSERT INTO shares (token, user_id, kind, ids, title, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      token,
      userId,
      kind,
      JSON.stringify(ids),
      title,
      now,
      expiresAt,
    );
    return { token, kind, ids, title, expiresAt };
  }

  findShare(token: string, kind: ShareKind, now = Date.now()): Share | null {
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) return null;
    const row = this.get<Pick<ShareRow, "token" | "kind" | "ids" | "title" | "expires_at">>("SELECT token, kind, ids, title, expires_at FROM shares WHERE token = ?", token);
    if (!row || row.kind !== kind || row.expires_at <= now) return null;
    return { token: row.token, kind, ids: JSON.parse(row.ids) as number[], title: row.title, expiresAt: row.expires_at };
  }

  // ---------------------------------------------------------------- collectables

  transaction<T>(fn: () => T): T {
    return this.pg.transaction(fn);
  }

  // ---------------------------------------------------------------- image bytes

  uploadedImageSize(imageKey: string): { width: number; height: number } | null {
    return this.get<{ width: number; height: number }>(
      "SELECT image_width AS width, image_height AS height FROM collectables WHERE image_key = ? AND image_kind = 'upload'",
      imageKey,
    );
  }

  saveImageOriginal(imageKey: string, bytes: Uint8Array): void {
    this.run(
      `INSERT INTO collectable_images (image_key, bytes, created_at) VALUES (?, ?, ?)
       ON CONFLICT (image_key) DO UPDATE SET bytes = excluded.bytes, created_at = excluded.created_at`,
      imageKey,
      bytes,
      Date.now(),
    );
  }

  imageOriginal(imageKey: string): Uint8Array | null {
    return this.get<{ bytes: Uint8Array }>("SELECT bytes FROM collectable_images WHERE image_key = ?", imageKey)?.bytes ?? null;
  }

  deleteImageOriginal(imageKey: string): void {
    this.run("DELETE FROM collectable_images WHERE image_key = ?", imageKey);
  }

  close(): void {
    this.pg.close();
    // the hot path's asynchronous pool of this thread, when it was opened
    void closeAsyncClient(this);
  }
}
