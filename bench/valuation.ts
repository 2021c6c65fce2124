/**
 * bench/valuation: how close the derived metrics come to the synthetic market's latent truth.
 *
 *   bun bench/valuation.ts [--scale small|medium] [--seed N] [--data DIR]
 *
 * 1. Estimates. Seed a market, then hold out each artwork's last sold lot: delete those lots
 *    from a copy, derive again, and compare each held-out hammer with the estimate for its month
 *    (the current estimate moved back along the artist's derived index:
 *    estimate(m) = estimate(now) × index(m) / index(now), and the band likewise). Reports the
 *    median absolute percentage error (MdAPE) and the share of held-out hammers inside
 *    [min, max], the band's stated level being 80 %. The noise the generator itself put on
 *    prices is the MdAPE of the TRUE value against the same hammers: the floor.
 *    Targets: coverage within 3 points of 80 %; MdAPE at most 1.15 × the floor.
 * 2. Index. For artists with at least 50 lots: correlation between derived and true 12-month
 *    log returns of the artist index, pooled over the months from each artist's first sale.
 *    Target: at least 0.9.
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { correlation, median } from "../src/analytics/stats";
import { parseArgs } from "../src/config";
import { deriveMarket } from "../src/derive";
import { DEFAULT_SEED, seedMarket } from "../src/seed";
import { monthIndex } from "../src/seed/series";

const { flags } = parseArgs(process.argv.slice(2));
const scale = (flags.scale as string) ?? "small";
const seed = Number(flags.seed ?? DEFAULT_SEED);
const dataDir = (flags.data as string) ?? mkdtempSync(join(tmpdir(), "artmarket-valuation-"));
const asOf = (flags["as-of"] as string) ?? "2026-06-30";

const t0 = performance.now();
const summary = await seedMarket({ dataDir, scale: scale as never, seed, asOf, quiet: true, embed: false });
console.log(`seeded ${scale} (seed ${seed}, as of ${asOf}): ${summary.counts.lots} lots in ${summary.seconds.toFixed(1)}s`);

const truth = new Database(join(dataDir, "truth.db"), { readonly: true });
const months = monthIndex(asOf) + 1;
const T = months - 1;
const trueIndex = new Map<number, Float32Array>();
for (const r of truth.query("SELECT artist_id, log_index FROM artist_truth").iterate() as Iterable<{ artist_id: number; log_index: Uint8Array }>) {
  trueIndex.set(r.artist_id, new Float32Array(r.log_index.buffer.slice(r.log_index.byteOffset, r.log_index.byteOffset + r.log_index.byteLength)));
}
const trueWork = new Map<number, number>();
for (const r of truth.query("SELECT artwork_id, hedonic + quality AS v FROM artwork_truth").iterate() as Iterable<{ artwork_id: number; v: number }>) {
  trueWork.set(r.artwork_id, r.v);
}

function chartOf(db: Database): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  for (const r of db.query("SELECT artist_id, points FROM artist_charts").iterate() as Iterable<{ artist_id: number; points: Uint8Array }>) {
    out.set(r.artist_id, new Float32Array(r.points.buffer.slice(r.points.byteOffset, r.points.byteOffset + r.points.byteLength)));
  }
  return out;
}

// ---------------------------------------------------------------- 2. index
{
  const db = new Database(join(dataDir, "market.db"), { readonly: true });
  const charts = chartOf(db);
  const artists = db
    .query("SELECT artist_id, count(*) AS n, date(min(sale_datetime), 'unixepoch') AS first FROM lots WHERE status = 'sold' GROUP BY artist_id HAVING count(*) >= 50")
    .all() as { artist_id: number; n: number; first: string }[];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const a of artists) {
    const chart = charts.get(a.artist_id)!;
    const tru = trueIndex.get(a.artist_id)!;
    for (let t = Math.max(12, monthIndex(a.first) + 12); t <= T; t++) {
      xs.push(Math.log(chart[t]!) - Math.log(chart[t - 12]!));
      ys.push(tru[t]! - tru[t - 12]!);
    }
  }
  const r = xs.length > 2 ? correlation(xs, ys) : Number.NaN;
  console.log(`index: ${artists.length} artists with ≥ 50 sold lots, ${xs.length} artist-months: correlation of 12-month log returns ${r.toFixed(3)} (target ≥ 0.90)`);
  db.close();
}

// ---------------------------------------------------------------- 1. estimates on held-out sales
{
  const copy = join(dataDir, "holdout.db");
  copyFileSync(join(dataDir, "market.db"), copy);
  const db = new Database(copy);
  db.run(`CREATE TEMP TABLE held AS
    SELECT l.id, l.artwork_id, l.artist_id, l.hammer_usd, date(l.sale_datetime, 'unixepoch') AS sale_datetime FROM lots l
    WHERE l.status = 'sold' AND l.hammer_usd > 0 AND l.id = (SELECT id FROM lots x WHERE x.artwork_id = l.artwork_id AND x.status = 'sold' ORDER BY x.sale_datetime DESC, x.id DESC LIMIT 1)`);
  db.run("DELETE FROM lots WHERE id IN (SELECT id FROM held)");
  const d0 = performance.now();
  const derived = await deriveMarket(db, { asOf, processVar: flags["process-var"] ? Number(flags["process-var"]) : undefined });
  console.log(`  model: ${JSON.stringify(derived.noise)}, hedonic rows ${derived.hedonicRows}`);
  const deriveSeconds = (performance.now() - d0) / 1000;
  const charts = chartOf(db);
  const rows = db
    .query(
      `SELECT h.artwork_id, h.artist_id, h.hammer_usd, h.sale_datetime, a.estimate_usd, a.estimate_min_usd, a.estimate_max_usd,
              (SELECT count(*) FROM lots x WHERE x.artwork_id = h.artwork_id AND x.status = 'sold') AS prior
       FROM held h JOIN artworks a ON a.id = h.artwork_id`,
    )
    .all() as { artwork_id: number; artist_id: number; hammer_usd: number; sale_datetime: string; estimate_usd: number | null; estimate_min_usd: number; estimate_max_usd: number; prior: number }[];
  const artistLots = new Map(
    (db.query("SELECT artist_id, count(*) AS n FROM lots WHERE status = 'sold' GROUP BY artist_id").all() as { artist_id: number; n: number }[]).map((r) => [r.artist_id, r.n]),
  );
  const ape: number[] = [];
  const floor: number[] = [];
  // the estimate's own error against the true value, log(est / true value), split into the
  // artist's mean (its index level) and the rest (the work: hedonic part and own effect)
  const modelErr = new Map<number, number[]>();
  let inside = 0;
  let counted = 0;
  let noEstimate = 0;
  const byPrior = new Map<string, { ape: number[]; floor: number[]; inside: number; n: number }>();
  for (const r of rows) {
    if (r.estimate_usd === null) {
      noEstimate++;
      continue;
    }
    const m = Math.min(T, monthIndex(r.sale_datetime));
    const chart = charts.get(r.artist_id)!;
    const back = chart[m]! / chart[T]!;
    const est = r.estimate_usd * back;
    const lo = r.estimate_min_usd * back;
    const hi = r.estimate_max_usd * back;
    const tru = Math.exp(trueWork.get(r.artwork_id)! + trueIndex.get(r.artist_id)![m]!);
    const e = Math.abs(est - r.hammer_usd) / r.hammer_usd;
    const f = Math.abs(tru - r.hammer_usd) / r.hammer_usd;
    const me = modelErr.get(r.artist_id) ?? [];
    me.push(Math.log(est / tru));
    modelErr.set(r.artist_id, me);
    const isIn = r.hammer_usd >= lo && r.hammer_usd <= hi ? 1 : 0;
    ape.push(e);
    floor.push(f);
    inside += isIn;
    counted++;
    const key = r.prior === 0 ? "first sale" : "resale";
    const size = artistLots.get(r.artist_id) ?? 0;
    const sizeKey = size < 10 ? "artist <10 lots" : size < 50 ? "artist 10-49" : size < 200 ? "artist 50-199" : "artist 200+";
    const gs = byPrior.get(sizeKey) ?? { ape: [], floor: [], inside: 0, n: 0 };
    gs.ape.push(e);
    gs.floor.push(f);
    gs.inside += isIn;
    gs.n++;
    byPrior.set(sizeKey, gs);
    const g = byPrior.get(key) ?? { ape: [], floor: [], inside: 0, n: 0 };
    g.ape.push(e);
    g.floor.push(f);
    g.inside += isIn;
    g.n++;
    byPrior.set(key, g);
  }
  const mdape = median(ape)!;
  const mdFloor = median(floor)!;
  console.log(`estimates: ${counted} held-out sales (${noEstimate} without an estimate), derive ${deriveSeconds.toFixed(1)}s`);
  console.log(`  MdAPE ${(100 * mdape).toFixed(1)} %, generator noise floor ${(100 * mdFloor).toFixed(1)} %: ratio ${(mdape / mdFloor).toFixed(3)} (target ≤ 1.15)`);
  console.log(`  80 % band coverage ${((100 * inside) / counted).toFixed(1)} % (target 77 to 83 %)`);
  {
    let all = 0;
    let between = 0;
    let within = 0;
    let n = 0;
    for (const list of modelErr.values()) {
      const mu = list.reduce((s, v) => s + v, 0) / list.length;
      for (const v of list) {
        all += v * v;
        between += mu * mu;
        within += (v - mu) ** 2;
        n++;
      }
    }
    console.log(
      `  log(estimate / true value): rms ${Math.sqrt(all / n).toFixed(3)} = artist mean ${Math.sqrt(between / n).toFixed(3)} (index level) ⊕ within artist ${Math.sqrt(within / n).toFixed(3)} (the work)`,
    );
  }
  for (const [k, g] of byPrior) {
    console.log(`  ${k.padEnd(16)} n=${g.n}: MdAPE ${(100 * median(g.ape)!).toFixed(1)} % vs floor ${(100 * median(g.floor)!).toFixed(1)} %, coverage ${((100 * g.inside) / g.n).toFixed(1)} %`);
  }
  db.close();
  rmSync(copy, { force: true });
}
truth.close();
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)}s`);
if (!flags.data) rmSync(dataDir, { recursive: true, force: true });
