/**
 * What both account stores do in the same SQL: a user's collectables, their acquisition, children
 * (appraisals, provenance, private sales) and comp sets, each read and written with the user's id
 * in the key. SqliteAccountStore and PgAccountStore extend it with their statements (`all`, `get`,
 * `run`, `transaction`: bun:sqlite, or SyncPg with booleans bound as 0/1), the name of SQL's
 * two-argument maximum, which differs (`max` in SQLite, `greatest` in PostgreSQL), and the casts that
 * give the usage totals numeric types (none in SQLite). Also the usage per key, and the rows of the
 * collectables list (which market SQL filters and sorts).
 */
import { toVector } from "../../db/collectables";
import type { AcquisitionRow, ChildRow, ChildTable, CollectableRow, CompRow, KeyUsage, ListedCollectable } from "./store";

/** A value bound to a statement. */
export type Bind = string | number | null | Uint8Array | boolean;

export const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** `AND` the collectable `collectable_id` names belongs to the user (children have no user id of their own). */
export const OWNED = "collectable_id IN (SELECT id FROM collectables WHERE user_id = ?)";

export abstract class SqlAccountStore {
  /** SQL's two-argument maximum. */
  protected abstract readonly greatest: "max" | "greatest";
  /** Casts of the usage totals: a count and a sum ("" where the driver's numbers are already numbers). */
  protected abstract readonly usageCasts: { count: string; sum: string };
  protected abstract all<T>(sql: string, ...params: Bind[]): T[];
  protected abstract get<T>(sql: string, ...params: Bind[]): T | null;
  /** Runs a statement; returns the rows it changed. */
  protected abstract run(sql: string, ...params: Bind[]): number;
  /** Runs `fn` in one transaction. */
  abstract transaction<T>(fn: () => T): T;

  usageByKey(since?: string): KeyUsage[] {
    // du_ledger has no index (it is written on the hot path): one scan, grouped by key
    const { count, sum } = this.usageCasts;
    return this.all<Omit<KeyUsage, "revoked"> & { revoked: boolean | number }>(
      `SELECT u.id AS user_id, u.name AS user_name, u.plan_slug AS plan, k.id AS key_id, k.kid, k.name AS key_name,
              k.revoked_at IS NOT NULL AS revoked, coalesce(l.requests, 0)${count} AS requests, coalesce(l.du, 0)${sum} AS du, l.first_day, l.last_day
       FROM api_keys k JOIN users u ON u.id = k.user_id
       LEFT JOIN (SELECT key_id, count(*) AS requests, sum(du) AS du, min(day) AS first_day, max(day) AS last_day
                  FROM du_ledger WHERE day >= ? GROUP BY key_id) l ON l.key_id = k.id
       ORDER BY u.id, k.id`,
      since ?? "",
    ).map((r) => ({ ...r, revoked: Boolean(r.revoked), du: Math.round(r.du * 1e6) / 1e6 }));
  }

  collectableListRows(userId: number): ListedCollectable[] {
    return this.all<ListedCollectable>(
      `SELECT c.id, c.artist_id, c.category_id, c.title, c.creation_year, c.edition_unique_type, c.created_at, c.selected_price_type,
              c.manual_price_value, c.machine_estimate_usd, q.use_instead_of_estimates, q.price_usd AS acquisition_price_usd
       FROM collectables c LEFT JOIN collectable_acquisitions q ON q.collectable_id = c.id WHERE c.user_id = ?`,
      userId,
    );
  }

  collectable(userId: number, id: number): CollectableRow | null {
    return this.get<CollectableRow>("SELECT * FROM collectables WHERE id = ? AND user_id = ?", id, userId);
  }

  collectablesByIds(userId: number, ids: readonly number[]): CollectableRow[] {
    if (!ids.length) return [];
    return this.all<CollectableRow>(`SELECT * FROM collectables WHERE user_id = ? AND id IN (${marks(ids.length)})`, userId, ...ids);
  }

  staleCollectables(userId: number, stamp: string): CollectableRow[] {
    return this.all<CollectableRow>("SELECT * FROM collectables WHERE user_id = ? AND (valued_on IS NULL OR valued_on <> ?)", userId, stamp);
  }

  insertCollectable(userId: number, values: Record<string, Bind>, now: number): number {
    return this.transaction(() => {
      const cols = { ...values, user_id: userId };
      const names = Object.keys(cols);
      const newId = this.get<{ id: number }>(`INSERT INTO collectables (${names.join(", ")}) VALUES (${marks(names.length)}) RETURNING id`, ...Object.values(cols))!.id;
      this.run("INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", newId, now);
      return newId;
    });
  }

  updateCollectable(userId: number, id: number, values: Record<string, Bind>, now: number): void {
    const sets = Object.keys(values);
    // updated_at always moves forward, even within the millisecond of the previous write
    this.run(
      `UPDATE collectables SET ${sets.map((c) => `${c} = ?`).join(", ")}${sets.length ? ", " : ""}updated_at = ${this.greatest}(?, updated_at + 1) WHERE id = ? AND user_id = ?`,
      ...Object.values(values),
      now,
      id,
      userId,
    );
  }

  saveValuation(userId: number, id: number, usd: number | null, basis: string | null, stamp: string): void {
    this.run("UPDATE collectables SET machine_estimate_usd = ?, machine_estimate_basis = ?, valued_on = ? WHERE id = ? AND user_id = ?", usd, basis, stamp, id, userId);
  }

  deleteCollectable(userId: number, id: number): void {
    // children go with it (ON DELETE CASCADE): acquisition, appraisals, provenance, sales, comp set
    this.run("DELETE FROM collectables WHERE id = ? AND user_id = ?", id, userId);
  }

  touchCollectable(userId: number, id: number, now: number): void {
    this.run(`UPDATE collectables SET updated_at = ${this.greatest}(?, updated_at + 1) WHERE id = ? AND user_id = ?`, now, id, userId);
  }

  collectableEmbedding(userId: number, id: number): Float32Array | null | undefined {
    const row = this.get<{ embedding: Uint8Array | null }>("SELECT embedding FROM collectables WHERE id = ? AND user_id = ?", id, userId);
    if (!row) return undefined;
    return row.embedding ? toVector(row.embedding) : null;
  }

  acquisition(userId: number, collectableId: number): AcquisitionRow | null {
    return this.get<AcquisitionRow>(`SELECT * FROM collectable_acquisitions WHERE collectable_id = ? AND ${OWNED}`, collectableId, userId);
  }

  acquisitionsOf(userId: number, collectableIds: readonly number[]): AcquisitionRow[] {
    if (!collectableIds.length) return [];
    return this.all<AcquisitionRow>(`SELECT * FROM collectable_acquisitions WHERE collectable_id IN (${marks(collectableIds.length)}) AND ${OWNED}`, ...collectableIds, userId);
  }

  saveAcquisition(userId: number, collectableId: number, values: Record<string, Bind>, now: number): void {
    this.transaction(() => {
      if (!this.acquisition(userId, collectableId)) this.run("INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", collectableId, now);
      const cols = Object.keys(values);
      this.run(
        `UPDATE collectable_acquisitions SET ${cols.map((c) => `${c} = ?`).join(", ")}, updated_at = ? WHERE collectable_id = ? AND ${OWNED}`,
        ...Object.values(values),
        now,
        collectableId,
        userId,
      );
      this.touchCollectable(userId, collectableId, now);
    });
  }

  setAcquisitionPriceUsd(userId: number, collectableId: number, priceUsd: number | null): void {
    this.run(`UPDATE collectable_acquisitions SET price_usd = ? WHERE collectable_id = ? AND ${OWNED}`, priceUsd, collectableId, userId);
  }

  children<R extends ChildRow>(userId: number, table: ChildTable, collectableIds: readonly number[], order: string): R[] {
    if (!collectableIds.length) return [];
    return this.all<R>(`SELECT * FROM ${table} WHERE collectable_id IN (${marks(collectableIds.length)}) AND ${OWNED} ORDER BY ${order}`, ...collectableIds, userId);
  }

  child<R extends ChildRow>(userId: number, table: ChildTable, collectableId: number, childId: number): R | null {
    return this.get<R>(`SELECT * FROM ${table} WHERE id = ? AND collectable_id = ? AND ${OWNED}`, childId, collectableId, userId);
  }

  insertChild(userId: number, table: ChildTable, collectableId: number, values: Record<string, Bind>, now: number): number {
    return this.transaction(() => {
      if (!this.collectable(userId, collectableId)) throw new Error(`collectable ${collectableId} is not the user's`);
      const cols = Object.keys(values);
      const newId = this.get<{ id: number }>(
        `INSERT INTO ${table} (collectable_id, ${cols.join(", ")}, created_at) VALUES (?, ${marks(cols.length)}, ?) RETURNING id`,
        collectableId,
        ...Object.values(values),
        now,
      )!.id;
      this.touchCollectable(userId, collectableId, now);
      return newId;
    });
  }

  updateChild(userId: number, table: ChildTable, collectableId: number, childId: number, values: Record<string, Bind>, now: number): void {
    const cols = Object.keys(values);
    this.transaction(() => {
      this.run(
        `UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ? AND collectable_id = ? AND ${OWNED}`,
        ...Object.values(values),
        childId,
        collectableId,
        userId,
      );
      this.touchCollectable(userId, collectableId, now);
    });
  }

  deleteChild(userId: number, table: ChildTable, collectableId: number, childId: number, now: number): void {
    this.transaction(() => {
      this.run(`DELETE FROM ${table} WHERE id = ? AND collectable_id = ? AND ${OWNED}`, childId, collectableId, userId);
      this.touchCollectable(userId, collectableId, now);
    });
  }

  compSetUpdatedAt(userId: number, collectableId: number): number | null {
    return this.get<{ updated_at: number }>(`SELECT updated_at FROM collectable_comp_sets WHERE collectable_id = ? AND ${OWNED}`, collectableId, userId)?.updated_at ?? null;
  }

  comps(userId: number, collectableId: number): CompRow[] {
    return this.all<CompRow>(`SELECT artist_id, artwork_id, weight FROM collectable_comps WHERE collectable_id = ? AND ${OWNED} ORDER BY position`, collectableId, userId);
  }

  replaceComps(userId: number, collectableId: number, comps: readonly CompRow[], now: number): void {
    this.transaction(() => {
      if (!this.collectable(userId, collectableId)) throw new Error(`collectable ${collectableId} is not the user's`);
      this.run("DELETE FROM collectable_comp_sets WHERE collectable_id = ?", collectableId); // its comps go with it
      if (comps.length) {
        this.run("INSERT INTO collectable_comp_sets (collectable_id, updated_at) VALUES (?, ?)", collectableId, now);
        const params: Bind[] = [];
        comps.forEach((c, i) => params.push(collectableId, i, c.artist_id, c.artwork_id, c.weight));
        // one statement for the whole set (a round trip each with PostgreSQL)
        this.run(`INSERT INTO collectable_comps (collectable_id, position, artist_id, artwork_id, weight) VALUES ${comps.map(() => `(${marks(5)})`).join(", ")}`, ...params);
      }
    });
  }
}
