/**
 * What a merge republishes (src/pipeline/derive/materiality.ts): figures that moved by less than
 * 1 % keep their published value; an artist's own figures move together; a work whose own record
 * changed is always written.
 */
import { describe, expect, test } from "bun:test";
import { ARTIST_INSERTS } from "../../../src/pipeline/derive/artist";
import { ARTIST_COLUMNS_WRITTEN, artistHeld, heldRelative, MATERIALITY, settleArtist, settleArtwork } from "../../../src/pipeline/derive/materiality";

const WORK_COLUMNS = /\(([^)]*)\)/
  .exec(ARTIST_INSERTS.artwork.replace(/\s+/g, " "))![1]!
  .split(",")
  .map((c) => c.trim());
const work = (values: Record<string, unknown>) => WORK_COLUMNS.map((c) => (c in values ? values[c] : c === "id" ? 7 : 0));
const artist = (values: Record<string, unknown>) => ARTIST_COLUMNS_WRITTEN.map((c) => (c in values ? values[c] : c === "id" ? 3 : 0));
const col = (row: unknown[], name: string) => row[WORK_COLUMNS.indexOf(name)];

describe("materiality", () => {
  test("a relative move under 1 % is held; 1 % or more, a sign or an absence that changes, is not", () => {
    expect(MATERIALITY).toBe(0.01);
    expect(heldRelative(1000, 1009)).toBe(true);
    expect(heldRelative(1000, 1011)).toBe(false);
    expect(heldRelative(1000, 989)).toBe(false);
    expect(heldRelative(null, null)).toBe(true);
    expect(heldRelative(null, 5)).toBe(false);
    expect(heldRelative(0, 0)).toBe(true);
    expect(heldRelative(0, 1)).toBe(false);
  });

  test("an artist's figures are held when one moved and none by 1 %; republished when one did, or none moved", () => {
    const published = artist({ market_cap: 1_000_000, price_momentum_percentage_12mo: 12.5, price_momentum_percentage_5y: 40 });
    expect(artistHeld(published, artist({ market_cap: 1_005_000, price_momentum_percentage_12mo: 12.9, price_momentum_percentage_5y: 40.2 }))).toBe(true);
    expect(artistHeld(published, artist({ market_cap: 1_020_000, price_momentum_percentage_12mo: 12.5, price_momentum_percentage_5y: 40 }))).toBe(false);
    expect(artistHeld(published, artist({ market_cap: 1_000_000, price_momentum_percentage_12mo: 13.6, price_momentum_percentage_5y: 40 }))).toBe(false);
    expect(artistHeld(published, published)).toBe(false);
    expect(artistHeld(null, published)).toBe(false);
    const derived = artist({ market_cap: 1_005_000, price_momentum_percentage_12mo: 12.9, price_momentum_percentage_5y: 40.2, lots_count: 9 });
    const settled = settleArtist(published, derived);
    expect(settled[ARTIST_COLUMNS_WRITTEN.indexOf("market_cap")]).toBe(1_000_000);
    expect(settled[ARTIST_COLUMNS_WRITTEN.indexOf("lots_count")]).toBe(9);
  });

  test("a work keeps its published estimate under 1 % unless its own record changed; the artist's figures follow the artist", () => {
    const published = work({
      estimate_usd: 10_000,
      estimate_min_usd: 8_000,
      estimate_max_usd: 12_500,
      price_change_12mo: 300,
      artist_market_cap: 5e6,
      price_momentum_12mo_ppm: 40_000,
      lots_count: 2,
    });
    const derived = work({
      estimate_usd: 10_050,
      estimate_min_usd: 8_040,
      estimate_max_usd: 12_560,
      price_change_12mo: 350,
      artist_market_cap: 5.02e6,
      price_momentum_12mo_ppm: 41_000,
      lots_count: 2,
    });
    const counts = { estimates: 0 };
    const held = settleArtwork(published, derived, true, counts);
    expect(held).toEqual(published);
    expect(counts.estimates).toBe(1);
    const republished = settleArtwork(published, derived, false, counts);
    expect([col(republished, "estimate_usd"), col(republished, "artist_market_cap"), col(republished, "price_momentum_12mo_ppm")]).toEqual([10_000, 5.02e6, 41_000]);
    // a new lot: the work's estimate is written, whatever it moved
    const withLot = work({ ...Object.fromEntries(WORK_COLUMNS.map((c, i) => [c, derived[i]])), lots_count: 3 });
    const written = settleArtwork(published, withLot, true, counts);
    expect([col(written, "estimate_usd"), col(written, "lots_count"), col(written, "artist_market_cap")]).toEqual([10_050, 3, 5e6]);
    // 1 % or more: written
    const moved = work({ ...Object.fromEntries(WORK_COLUMNS.map((c, i) => [c, published[i]])), estimate_usd: 10_150 });
    expect(col(settleArtwork(published, moved, true, counts), "estimate_usd")).toBe(10_150);
    expect(counts.estimates).toBe(2);
  });
});
