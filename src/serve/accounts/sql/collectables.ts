/**
 * Collectables: a user's own artworks, their acquisition, children (appraisals, provenance,
 * private sales) and comp sets, each read and written with the user's id in the key; the rows the
 * collectables list binds to its market SQL; the uploaded images' sizes and (PostgreSQL) their
 * original bytes.
 */
import { toVector } from "../../../db/collectables";
import type { AcquisitionRow, ChildRow, ChildTable, CollectableRow, CompRow, ListedCollectable } from "../store";
import { marks } from "../../../db/sql";
import type { Bind, SqlBase } from "./dialect";

/** `AND` the collectable `collectable_id` names belongs to the user (children have no user id of their own). */
export const OWNED = "collectable_id IN (SELECT id FROM collectables WHERE user_id = ?)";

export interface CollectableStore {
  collectable(userId: number, id: number): CollectableRow | null;
  collectablesByIds(userId: number, ids: readonly number[]): CollectableRow[];
  /** The user's collectables valued on another market snapshot than `stamp` (or never). */
  staleCollectables(userId: number, stamp: string): CollectableRow[];
  /** The user's collectables as the collectables list reads them (market SQL, bound as one value), in no order. */
  collectableListRows(userId: number): ListedCollectable[];
  /** Inserts a collectable with its empty acquisition; returns its id. */
  insertCollectable(userId: number, values: Record<string, Bind>, now: number): number;
  /** Sets columns of a collectable; updated_at moves forward (at least one ms past the last write). */
  updateCollectable(userId: number, id: number, values: Record<string, Bind>, now: number): void;
  /** Stores a machine estimate (and the snapshot it was computed on). */
  saveValuation(userId: number, id: number, usd: number | null, basis: string | null, stamp: string): void;
  /** Deletes a collectable; its children go with it. */
  deleteCollectable(userId: number, id: number): void;
  /** Bumps updated_at of a collectable after a change to one of its children. */
  touchCollectable(userId: number, id: number, now: number): void;
  /** The image embedding: undefined without such a collectable of the user, null without embedding. */
  collectableEmbedding(userId: number, id: number): Float32Array | null | undefined;

  acquisition(userId: number, collectableId: number): AcquisitionRow | null;
  acquisitionsOf(userId: number, collectableIds: readonly number[]): AcquisitionRow[];
  /** Writes the acquisition (creating its row when missing) and bumps the collectable. */
  saveAcquisition(userId: number, collectableId: number, values: Record<string, Bind>, now: number): void;
  setAcquisitionPriceUsd(userId: number, collectableId: number, priceUsd: number | null): void;

  children<R extends ChildRow>(userId: number, table: ChildTable, collectableIds: readonly number[], order: string): R[];
  child<R extends ChildRow>(userId: number, table: ChildTable, collectableId: number, childId: number): R | null;
  insertChild(userId: number, table: ChildTable, collectableId: number, values: Record<string, Bind>, now: number): number;
  updateChild(userId: number, table: ChildTable, collectableId: number, childId: number, values: Record<string, Bind>, now: number): void;
  deleteChild(userId: number, table: ChildTable, collectableId: number, childId: number, now: number): void;

  /** When the saved comp set was last replaced (ms), or null without one. */
  compSetUpdatedAt(userId: number, collectableId: number): number | null;
  comps(userId: number, collectableId: number): CompRow[];
  replaceComps(userId: number, collectableId: number, comps: readonly CompRow[], now: number): void;

  /** The size of an uploaded collectable image by its key (whoever owns it), or null. */
  uploadedImageSize(imageKey: string): { width: number; height: number } | null;
  /**
   * Keeps an uploaded original's bytes in the store, so that every node can serve it (PostgreSQL);
   * the SQLite store keeps originals as files under the data directory only, and does nothing.
   */
  saveImageOriginal(imageKey: string, bytes: Uint8Array): void;
  /** An uploaded original's bytes kept in the store, or null (always null for SQLite). */
  imageOriginal(imageKey: string): Uint8Array | null;
  /** Forgets an original's bytes (after the collectable's image was replaced or the collectable deleted). */
  deleteImageOriginal(imageKey: string): void;
}

export function CollectablesSql<B extends SqlBase>(Base: B) {
  abstract class Collectables extends Base implements CollectableStore {
    collectableListRows(userId: number): ListedCollectable[] {
      return this.sql.all<ListedCollectable>(
        `SELECT c.id, c.artist_id, c.category_id, c.title, c.creation_year, c.edition_unique_type, c.created_at, c.selected_price_type,
                c.manual_price_value, c.machine_estimate_usd, q.use_instead_of_estimates, q.price_usd AS acquisition_price_usd
         FROM collectables c LEFT JOIN collectable_acquisitions q ON q.collectable_id = c.id WHERE c.user_id = ?`,
        userId,
      );
    }

    collectable(userId: number, id: number): CollectableRow | null {
      return this.sql.get<CollectableRow>("SELECT * FROM collectables WHERE id = ? AND user_id = ?", id, userId);
    }

    collectablesByIds(userId: number, ids: readonly number[]): CollectableRow[] {
      if (!ids.length) return [];
      return this.sql.all<CollectableRow>(`SELECT * FROM collectables WHERE user_id = ? AND id IN (${marks(ids.length)})`, userId, ...ids);
    }

    staleCollectables(userId: number, stamp: string): CollectableRow[] {
      return this.sql.all<CollectableRow>("SELECT * FROM collectables WHERE user_id = ? AND (valued_on IS NULL OR valued_on <> ?)", userId, stamp);
    }

    insertCollectable(userId: number, values: Record<string, Bind>, now: number): number {
      return this.sql.transaction(() => {
        const cols = { ...values, user_id: userId };
        const names = Object.keys(cols);
        const newId = this.sql.get<{ id: number }>(`INSERT INTO collectables (${names.join(", ")}) VALUES (${marks(names.length)}) RETURNING id`, ...Object.values(cols))!.id;
        this.sql.run("INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", newId, now);
        return newId;
      });
    }

    updateCollectable(userId: number, id: number, values: Record<string, Bind>, now: number): void {
      const sets = Object.keys(values);
      // updated_at always moves forward, even within the millisecond of the previous write
      this.sql.run(
        `UPDATE collectables SET ${sets.map((c) => `${c} = ?`).join(", ")}${sets.length ? ", " : ""}updated_at = ${this.sql.greatest}(?, updated_at + 1) WHERE id = ? AND user_id = ?`,
        ...Object.values(values),
        now,
        id,
        userId,
      );
    }

    saveValuation(userId: number, id: number, usd: number | null, basis: string | null, stamp: string): void {
      this.sql.run("UPDATE collectables SET machine_estimate_usd = ?, machine_estimate_basis = ?, valued_on = ? WHERE id = ? AND user_id = ?", usd, basis, stamp, id, userId);
    }

    deleteCollectable(userId: number, id: number): void {
      // children go with it (ON DELETE CASCADE): acquisition, appraisals, provenance, sales, comp set
      this.sql.run("DELETE FROM collectables WHERE id = ? AND user_id = ?", id, userId);
    }

    touchCollectable(userId: number, id: number, now: number): void {
      this.sql.run(`UPDATE collectables SET updated_at = ${this.sql.greatest}(?, updated_at + 1) WHERE id = ? AND user_id = ?`, now, id, userId);
    }

    collectableEmbedding(userId: number, id: number): Float32Array | null | undefined {
      const row = this.sql.get<{ embedding: Uint8Array | null }>("SELECT embedding FROM collectables WHERE id = ? AND user_id = ?", id, userId);
      if (!row) return undefined;
      return row.embedding ? toVector(row.embedding) : null;
    }

    acquisition(userId: number, collectableId: number): AcquisitionRow | null {
      return this.sql.get<AcquisitionRow>(`SELECT * FROM collectable_acquisitions WHERE collectable_id = ? AND ${OWNED}`, collectableId, userId);
    }

    acquisitionsOf(userId: number, collectableIds: readonly number[]): AcquisitionRow[] {
      if (!collectableIds.length) return [];
      return this.sql.all<AcquisitionRow>(
        `SELECT * FROM collectable_acquisitions WHERE collectable_id IN (${marks(collectableIds.length)}) AND ${OWNED}`,
        ...collectableIds,
        userId,
      );
    }

    saveAcquisition(userId: number, collectableId: number, values: Record<string, Bind>, now: number): void {
      this.sql.transaction(() => {
        if (!this.acquisition(userId, collectableId)) this.sql.run("INSERT INTO collectable_acquisitions (collectable_id, updated_at) VALUES (?, ?)", collectableId, now);
        const cols = Object.keys(values);
        this.sql.run(
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
      this.sql.run(`UPDATE collectable_acquisitions SET price_usd = ? WHERE collectable_id = ? AND ${OWNED}`, priceUsd, collectableId, userId);
    }

    children<R extends ChildRow>(userId: number, table: ChildTable, collectableIds: readonly number[], order: string): R[] {
      if (!collectableIds.length) return [];
      return this.sql.all<R>(`SELECT * FROM ${table} WHERE collectable_id IN (${marks(collectableIds.length)}) AND ${OWNED} ORDER BY ${order}`, ...collectableIds, userId);
    }

    child<R extends ChildRow>(userId: number, table: ChildTable, collectableId: number, childId: number): R | null {
      return this.sql.get<R>(`SELECT * FROM ${table} WHERE id = ? AND collectable_id = ? AND ${OWNED}`, childId, collectableId, userId);
    }

    insertChild(userId: number, table: ChildTable, collectableId: number, values: Record<string, Bind>, now: number): number {
      return this.sql.transaction(() => {
        if (!this.collectable(userId, collectableId)) throw new Error(`collectable ${collectableId} is not the user's`);
        const cols = Object.keys(values);
        const newId = this.sql.get<{ id: number }>(
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
      this.sql.transaction(() => {
        this.sql.run(
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
      this.sql.transaction(() => {
        this.sql.run(`DELETE FROM ${table} WHERE id = ? AND collectable_id = ? AND ${OWNED}`, childId, collectableId, userId);
        this.touchCollectable(userId, collectableId, now);
      });
    }

    compSetUpdatedAt(userId: number, collectableId: number): number | null {
      return this.sql.get<{ updated_at: number }>(`SELECT updated_at FROM collectable_comp_sets WHERE collectable_id = ? AND ${OWNED}`, collectableId, userId)?.updated_at ?? null;
    }

    comps(userId: number, collectableId: number): CompRow[] {
      return this.sql.all<CompRow>(`SELECT artist_id, artwork_id, weight FROM collectable_comps WHERE collectable_id = ? AND ${OWNED} ORDER BY position`, collectableId, userId);
    }

    replaceComps(userId: number, collectableId: number, comps: readonly CompRow[], now: number): void {
      this.sql.transaction(() => {
        if (!this.collectable(userId, collectableId)) throw new Error(`collectable ${collectableId} is not the user's`);
        this.sql.run("DELETE FROM collectable_comp_sets WHERE collectable_id = ?", collectableId); // its comps go with it
        if (comps.length) {
          this.sql.run("INSERT INTO collectable_comp_sets (collectable_id, updated_at) VALUES (?, ?)", collectableId, now);
          const params: Bind[] = [];
          comps.forEach((c, i) => params.push(collectableId, i, c.artist_id, c.artwork_id, c.weight));
          // one statement for the whole set (a round trip each with PostgreSQL)
          this.sql.run(`INSERT INTO collectable_comps (collectable_id, position, artist_id, artwork_id, weight) VALUES ${comps.map(() => `(${marks(5)})`).join(", ")}`, ...params);
        }
      });
    }

    uploadedImageSize(imageKey: string): { width: number; height: number } | null {
      return this.sql.get<{ width: number; height: number }>(
        "SELECT image_width AS width, image_height AS height FROM collectables WHERE image_key = ? AND image_kind = 'upload'",
        imageKey,
      );
    }

    saveImageOriginal(imageKey: string, bytes: Uint8Array): void {
      if (!this.sql.keepsOriginals) return;
      this.sql.run(
        `INSERT INTO collectable_images (image_key, bytes, created_at) VALUES (?, ?, ?)
         ON CONFLICT (image_key) DO UPDATE SET bytes = excluded.bytes, created_at = excluded.created_at`,
        imageKey,
        bytes,
        Date.now(),
      );
    }

    imageOriginal(imageKey: string): Uint8Array | null {
      if (!this.sql.keepsOriginals) return null;
      return this.sql.get<{ bytes: Uint8Array }>("SELECT bytes FROM collectable_images WHERE image_key = ?", imageKey)?.bytes ?? null;
    }

    deleteImageOriginal(imageKey: string): void {
      if (this.sql.keepsOriginals) this.sql.run("DELETE FROM collectable_images WHERE image_key = ?", imageKey);
    }
  }
  return Collectables;
}
