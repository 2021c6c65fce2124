/**
 * MarketSnapshot: the facts of one open market.db that never change while it is open (a snapshot
 * is immutable; a new snapshot is a new connection), found on first use and kept on the instance:
 * its tables and indexes, its counts, its vector indexes, prepared statements, and the artist
 * statistics already answered. Every reader of such a fact asks the snapshot of its connection:
 * `deps.snapshot` (opened by openDeps), or `snapshotOf(db)` for a service handed a bare Database
 * (the list services, as tests and benchmarks call them). snapshotOf is the one place that maps a
 * connection to its snapshot, so each fact is computed once per connection.
 */
import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";
import { MARKET_INDEX as IX } from "../db/market-indexes/names";
import { RecentMap } from "../platform/recent";
import { VectorIndex, type VectorIndexSpec } from "../images/vector-index";

/** Entries the artist statistics keep (least recently used first out). */
const ARTIST_STATS_SIZE = 64;

/** Followed sets kept (least recently used first out): a user's follows of one kind that one list's filters keep. */
const FOLLOWED_KEPT_SIZE = 64;

export class MarketSnapshot {
  #tables: Set<string> | null = null;
  #indexes: Set<string> | null = null;
  readonly #counts = new Map<string, number>();
  readonly #categorySizes = new Map<number, number>();
  #media: string[] | null | undefined;
  readonly #vectors = new Map<string, VectorIndex | null>();
  readonly #statements = new Map<string, Statement>();
  readonly #artistStats = new RecentMap<string, unknown>(ARTIST_STATS_SIZE);
  readonly #followedKept = new RecentMap<string, ReadonlySet<number>>(FOLLOWED_KEPT_SIZE);
  #stamp: string | null = null;

  constructor(readonly db: Database) {}

  /** Reads the names of main's tables and indexes, once. */
  #schema(): { tables: Set<string>; indexes: Set<string> } {
    if (!this.#tables || !this.#indexes) {
      const rows = this.db.query<{ type: string; name: string }, []>("SELECT type, name FROM main.sqlite_master WHERE type IN ('table', 'index')").all();
      this.#tables = new Set(rows.filter((r) => r.type === "table").map((r) => r.name));
      this.#indexes = new Set(rows.filter((r) => r.type === "index").map((r) => r.name));
    }
    return { tables: this.#tables, indexes: this.#indexes };
  }

  /** Whether the snapshot has this index (a market built before some code may lack the read indexes). */
  hasIndex(name: string): boolean {
    return this.#schema().indexes.has(name);
  }

  /** Whether the snapshot has this table (virtual tables included: the FTS tables). */
  hasTable(name: string): boolean {
    return this.#schema().tables.has(name);
  }

  /** Whether the snapshot has this FTS table (lots_fts, artists_fts; an older market may have none). */
  hasFts(table: "lots_fts" | "artists_fts"): boolean {
    return this.hasTable(table);
  }

  #count(key: string, sql: string): number {
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = this.db.query<{ n: number | null }, []>(sql).get()!.n ?? 0;
      this.#counts.set(key, n);
    }
    return n;
  }

  /** The largest id of `table` (0 for none): the planners' bound on its rows. */
  maxId(table: "lots" | "artworks"): number {
    return this.#count(`max:${table}`, `SELECT max(id) AS n FROM ${table}`);
  }

  /** Artists in the snapshot (exact). */
  artistCount(): number {
    return this.#count("artists", "SELECT count(*) AS n FROM artists");
  }

  /**
   * The distinct medium texts of the artworks, read once (one pass over artworks): the materials
   * filter matches its values against them (src/serve/modules/artworks/materials.ts). null when
   * the market has more than `max` of them (then kept as null: a per-request pass instead).
   */
  distinctMedia(max: number): readonly string[] | null {
    if (this.#media === undefined) {
      const media: string[] = [];
      for (const r of this.db.query<{ medium: string }, []>("SELECT DISTINCT medium FROM artworks").iterate()) {
        if (media.length === max) {
          this.#media = null;
          return null;
        }
        media.push(r.medium);
      }
      this.#media = media;
    }
    return this.#media;
  }

  /** Works of one category, counted on artworks_category the first time it is asked. */
  categorySize(category: number): number {
    let n = this.#categorySizes.get(category);
    if (n === undefined) {
      n = this.db.query<{ n: number }, [number]>(`SELECT count(*) AS n FROM artworks INDEXED BY ${IX.artworks_category} WHERE category_id = ?`).get(category)!.n;
      this.#categorySizes.set(category, n);
    }
    return n;
  }

  /** The vector index of `spec` (image_vectors, artist_vectors), opened on first use; null when the snapshot has none. */
  vectorIndex(spec: VectorIndexSpec): VectorIndex | null {
    let index = this.#vectors.get(spec.name);
    if (index === undefined) {
      index = VectorIndex.exists(this.db, spec) ? new VectorIndex(this.db, spec) : null;
      this.#vectors.set(spec.name, index);
    }
    return index;
  }

  /** A statement of fixed text, prepared once for the connection. */
  statement<T, P extends SQLQueryBindings[]>(sql: string): Statement<T, P> {
    let st = this.#statements.get(sql);
    if (!st) {
      st = this.db.query(sql);
      this.#statements.set(sql, st);
    }
    return st as unknown as Statement<T, P>;
  }

  /** The artist statistics answered for `key` (made the most recently used), or undefined. */
  artistStats(key: string): unknown {
    return this.#artistStats.get(key);
  }

  /** Keeps the artist statistics of `key`, the least recently used out past ARTIST_STATS_SIZE entries. */
  keepArtistStats(key: string, stats: unknown): void {
    this.#artistStats.set(key, stats);
  }

  /**
   * Which of a user's followed ids the market holds and a list's filters keep: `key` names the
   * statement and every value it binds (the followed ids among them), `read` runs it. Kept for the
   * snapshot (it moves with a swap), FOLLOWED_KEPT_SIZE sets, so that a page of a followed list
   * already read, or the next one, reads the follows alone (1 ms of about 2.7 at 2,000 follows).
   */
  followedKept(key: string, read: () => ReadonlySet<number>): ReadonlySet<number> {
    let hit = this.#followedKept.get(key);
    if (!hit) {
      hit = read();
      this.#followedKept.set(key, hit);
    }
    return hit;
  }

  /** Identity of the snapshot (its market_meta, "market" when empty), for caches kept beyond the connection. */
  stamp(): string {
    if (this.#stamp === null) {
      const rows = this.db.query<{ key: string; value: string }, []>("SELECT key, value FROM market_meta ORDER BY key").all();
      this.#stamp = rows.map((r) => `${r.key}=${r.value}`).join(";") || "market";
    }
    return this.#stamp;
  }

  /**
   * What identifies the snapshot to an operator and a load balancer (/readyz): `id` is the first
   * 16 hex digits of the SHA-256 of its market_meta (the same market.db copied to several nodes
   * has the same id), with its as-of date and build time.
   */
  info(): { id: string; as_of: string | null; built_at: string | null } {
    const meta = this.db.query<{ key: string; value: string }, []>("SELECT key, value FROM market_meta WHERE key IN ('as_of', 'built_at')").all();
    const get = (k: string) => meta.find((m) => m.key === k)?.value ?? null;
    return { id: new Bun.CryptoHasher("sha256").update(this.stamp()).digest("hex").slice(0, 16), as_of: get("as_of"), built_at: get("built_at") };
  }
}

const snapshots = new WeakMap<Database, MarketSnapshot>();

/** The snapshot of a market connection, opened on first use: one per connection. */
export function snapshotOf(db: Database): MarketSnapshot {
  let snapshot = snapshots.get(db);
  if (!snapshot) {
    snapshot = new MarketSnapshot(db);
    snapshots.set(db, snapshot);
  }
  return snapshot;
}
