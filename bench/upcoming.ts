/**
 * bench/upcoming: how well the upcoming lots' forecasts (src/pipeline/derive/upcoming.ts) do, on
 * concluded lots held out in time.
 *
 *   bun bench/upcoming.ts [--scales small,medium] [--seeds 1986,42,7] [--cuts N] [--as-of YYYY-MM-DD] [--dump PREFIX]
 *
 * For each scale and seed: seed a market, then for each cut (windows of UPCOMING_WINDOW months
 * back from the as-of month, the last one ending the month before it; --cuts, default 16 on
 * small and 2 above) derive a copy of the market as of the day before the window: the window's
 * lots read as upcoming (outcome hidden, estimates kept), every later lot and sale gone. The
 * window's concluded lots are scored against their real outcome:
 * - calibration: the lots in ten equal groups by predicted probability, each group's observed
 *   sale rate against its mean prediction (target: every decile within 3 points);
 * - the oracle: each lot's chance as the generator drew it, from the truth (truth.db): the work's
 *   latent value that month, the reserve at the low estimate, the hammer rounded to the house's
 *   bidding increment, the sale noise and the withdrawals;
 * - the calibration's limit: the model's deciles against the oracle's expected rate (its error
 *   without the outcomes' noise), the oracle's own worst decile, and a perfect forecast's worst
 *   decile on the same lots (outcomes drawn from the oracle's chances, 400 draws: the median, and
 *   how often every decile is within 3 points);
 * - Brier skill score against the base rate (the sale rate of the 12 months before the cut), and
 *   the oracle's; the gap between the two is what is left to gain;
 * - the expected hammer on the sold lots: median absolute percentage error against the house's
 *   estimate midpoint's on the same lots (target: lower than the midpoint's, arithmetic and
 *   geometric), and the share inside the 80 % band (target: 80 % ± 3 points).
 * Prints a row a scale and seed, then the medians over seeds, with the targets met or not.
 * --dump PREFIX writes each scale and seed's scored lots (with the oracle's chance) to
 * PREFIX-<scale>-<seed>.json.
 *
 *   bun bench/upcoming.ts --forward [--scales small] [--seeds 1986,42] [--days 70] [--as-of YYYY-MM-DD] [--data DIR]
 *
 * Forward-tested (issue 33, item 7): the forecasts a market serves for its upcoming lots (read
 * from market.db's lots, the columns the API serves) before `feed` runs N days past its as-of
 * date, scored against the outcomes the feed then publishes (houses publish 1-14 days late; a
 * lot not yet held or held but not yet published stays unresolved and is counted). The same
 * scoring as above (calibration by decile, Brier skill, the hammer against the house's
 * midpoint, the band), plus the Brier skill against each house's sell rate (its last 12 months,
 * shrunk towards the market's with 50 pseudo-lots) and the hammer's median absolute log error.
 * --data DIR scores an existing market (its truth.db is extended by the feed, as feed does).
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../src/analytics/stats";
import { attachWorksOfFinished, removeWorks } from "../src/pipeline/db/works-file";
import { deriveMarket } from "../src/pipeline/derive/market";
import { feedMarket } from "../src/pipeline/feed";
import { normalCdf, UPCOMING_WINDOW } from "../src/pipeline/derive/upcoming";
import { seedMarket } from "../src/pipeline/seed";
import { hammerIncrement, MODEL } from "../src/pipeline/seed/market";
import { TRUTH_STEP, unpackLogIndex } from "../src/pipeline/seed/truth";
import { monthDate, monthIndex } from "../src/market/calendar";
import { addDays, dayNumber } from "../src/market/time";
import { Random } from "../src/market/random";
import { parseArgs } from "../src/platform/config";

interface Row {
  scale: string;
  seed: number;
  lots: number;
  sold: number;
  /** Largest |observed − predicted| over the deciles. */
  calibration: number;
  deciles: string;
  /** The same of the oracle's own forecast (its deciles): what a forecast that knows the truth scores on these lots. */
  oracleCalibration: number;
  /** Largest |expected − predicted| over the model's deciles, the expected rate the oracle's (no outcome noise). */
  expectedCalibration: number;
  /** A perfect forecast's worst decile on these lots (outcomes drawn from the oracle's chances): its median over draws, and the share of draws within 3 points. */
  perfectWorst: number;
  perfectWithin: number;
  bss: number;
  oracleBss: number;
  mdape: number;
  mdapeMid: number;
  mdapeGeo: number;
  coverage: number;
  deriveSeconds: number;
  addedSeconds: number;
}

export interface Scored {
  artist_id: number;
  artwork_id: number;
  month: number;
  sold: number;
  reserve: number;
  hammer: number | null;
  lo: number | null;
  hi: number | null;
  /** The low estimate in the sale's currency. */
  lo_native: number | null;
  p: number | null;
  eh: number | null;
  elo: number | null;
  ehi: number | null;
  /** USD per unit of the sale's currency on the sale day (forward mode); else lo / lo_native. */
  usd_per_native?: number;
}

/** The least hammer (sale currency) that the bidding increment rounds to `low` or more (hammerIncrement is monotone). */
export function clearingHammer(low: number): number {
  let lo = low / 2;
  let hi = low;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (hammerIncrement(mid) >= low) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Draws of the perfect forecast's outcomes (perfectForecast). */
const DRAWS = 400;

/**
 * What calibration a perfect forecast shows on lots whose chances are `chances`: outcomes drawn
 * from those chances DRAWS times, each time the worst decile (grouped by the chance itself);
 * returns the median worst decile and the share of draws with every decile within 3 points.
 */
export function perfectForecast(chances: number[], seed: number): { median: number; within: number } {
  const sorted = [...chances].sort((a, b) => a - b);
  const rng = new Random(seed);
  const worsts: number[] = [];
  for (let draw = 0; draw < DRAWS; draw++) {
    let worst = 0;
    for (let d = 0; d < 10; d++) {
      const from = Math.floor((d * sorted.length) / 10);
      const to = Math.floor(((d + 1) * sorted.length) / 10);
      let expected = 0;
      let observed = 0;
      for (let i = from; i < to; i++) {
        expected += sorted[i]!;
        if (rng.next() < sorted[i]!) observed++;
      }
      worst = Math.max(worst, Math.abs(observed - expected) / (to - from));
    }
    worsts.push(worst);
  }
  return { median: median(worsts)!, within: worsts.filter((w) => w <= 0.03).length / DRAWS };
}

/** One group of the calibration: its mean prediction, its observed rate, its lots. */
export interface Decile {
  predicted: number;
  observed: number;
  n: number;
}

/**
 * Calibration by decile: `lots` in ten equal groups by the prediction `f`, each group's mean
 * prediction against its mean `outcome`; `worst` the largest |observed − predicted| (empty groups,
 * under ten lots, are skipped), `cells` the groups as "predicted/observed" percentages.
 */
export function decileTable<T>(lots: readonly T[], f: (s: T) => number, outcome: (s: T) => number): { worst: number; cells: string; deciles: Decile[] } {
  const sorted = [...lots].sort((a, b) => f(a) - f(b));
  let worst = 0;
  const cells: string[] = [];
  const deciles: Decile[] = [];
  for (let d = 0; d < 10; d++) {
    const group = sorted.slice(Math.floor((d * sorted.length) / 10), Math.floor(((d + 1) * sorted.length) / 10));
    if (!group.length) continue;
    const predicted = group.reduce((s, g) => s + f(g), 0) / group.length;
    const observed = group.reduce((s, g) => s + outcome(g), 0) / group.length;
    worst = Math.max(worst, Math.abs(observed - predicted));
    cells.push(`${(100 * predicted).toFixed(0)}/${(100 * observed).toFixed(0)}`);
    deciles.push({ predicted, observed, n: group.length });
  }
  return { worst, cells: cells.join(" "), deciles };
}

/** The Brier score of the forecast `f` of `lots` whose outcome (0 or 1) is `sold`. */
export function brier<T extends { sold: number }>(lots: readonly T[], f: (s: T) => number): number {
  return lots.reduce((s, g) => s + (f(g) - g.sold) ** 2, 0) / lots.length;
}

/** The expected hammer's errors on sold lots, against the house's midpoint's (arithmetic and geometric) on the same lots. */
export interface HammerScores {
  lots: number;
  /** Median absolute percentage error |x / hammer − 1|. */
  mdape: number;
  mdapeMid: number;
  mdapeGeo: number;
  /** Median absolute log error |log(x / hammer)|. */
  mdale: number;
  mdaleMid: number;
  mdaleGeo: number;
  /** The share of hammers inside the 80 % band. */
  coverage: number;
}

/** The sold lots that the hammer is scored on: a hammer, a forecast and both estimates. */
export const scoredSold = <T extends Scored>(lots: readonly T[]): T[] => lots.filter((s) => s.sold && s.hammer! > 0 && s.eh !== null && s.lo! > 0 && s.hi! > 0);

export function hammerScores(sold: readonly Scored[]): HammerScores {
  const ape = (x: number, h: number) => Math.abs(x / h - 1);
  const ale = (x: number, h: number) => Math.abs(Math.log(x / h));
  const mid = (s: Scored) => (s.lo! + s.hi!) / 2;
  const geo = (s: Scored) => Math.sqrt(s.lo! * s.hi!);
  const m = (e: (x: number, h: number) => number, f: (s: Scored) => number) => median(sold.map((s) => e(f(s), s.hammer!))) ?? Number.NaN;
  return {
    lots: sold.length,
    mdape: m(ape, (s) => s.eh!),
    mdapeMid: m(ape, mid),
    mdapeGeo: m(ape, geo),
    mdale: m(ale, (s) => s.eh!),
    mdaleMid: m(ale, mid),
    mdaleGeo: m(ale, geo),
    coverage: sold.filter((s) => s.hammer! >= s.elo! && s.hammer! <= s.ehi!).length / sold.length,
  };
}

/** The truth's latent values: each artist's log index by month, each work's log value over it. */
export interface Truth {
  index: Map<number, Float64Array>;
  work: Map<number, number>;
}

export function readTruth(dataDir: string): Truth {
  const truth = new Database(join(dataDir, "truth.db"), { readonly: true });
  const index = new Map<number, Float64Array>();
  for (const r of truth.query("SELECT artist_id, first_log_index, log_index_steps FROM artist_truth").iterate() as Iterable<{
    artist_id: number;
    first_log_index: number;
    log_index_steps: Uint8Array;
  }>)
    index.set(r.artist_id, unpackLogIndex(r.first_log_index, r.log_index_steps));
  const work = new Map<number, number>();
  for (const r of truth.query("SELECT artwork_id, hedonic + quality AS v FROM artwork_truth").iterate() as Iterable<{ artwork_id: number; v: number }>)
    work.set(r.artwork_id, r.v * TRUTH_STEP);
  truth.close();
  return { index, work };
}

/**
 * The oracle: the generator's chance of a lot from the truth (the work's value that month, at
 * most `lastMonth`, the reserve at the low estimate, the sale noise, the withdrawals, the hammer
 * rounded to the house's bidding increment: it clears a low estimate L from L − increment/2).
 */
export function oracleChance(s: Scored, truth: Truth, lastMonth: number): number {
  const keep = 1 - MODEL.withdrawnRate;
  const v = (truth.work.get(s.artwork_id) ?? 0) + (truth.index.get(s.artist_id)?.[Math.min(lastMonth, s.month)] ?? 0);
  if (!s.reserve || !(s.lo! > 0) || !(s.lo_native! > 0)) return keep;
  const low = s.lo_native! * MODEL.reserveOfLow;
  const threshold = clearingHammer(low);
  return keep * normalCdf((v - Math.log(threshold * (s.usd_per_native ?? s.lo! / s.lo_native!))) / MODEL.saleNoise);
}

const seconds = (s: string) => Math.floor(Date.parse(`${s}T00:00:00Z`) / 1000);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
/** The backtest: concluded lots held out in time (the module's comment). */
async function backtest(flags: Record<string, string | true>, scales: string[], seeds: number[], asOf: string): Promise<void> {
  const rows: Row[] = [];

  for (const scale of scales) {
    for (const seed of seeds) {
      const dataDir = mkdtempSync(join(tmpdir(), "artmarket-upcoming-"));
      const summary = await seedMarket({ dataDir, scale: scale as never, seed, asOf, quiet: true, embed: false });
      console.log(`seeded ${scale} (seed ${seed}, as of ${asOf}): ${summary.counts.lots} lots in ${summary.seconds.toFixed(1)}s`);
      const truth = readTruth(dataDir);

      const T = monthIndex(asOf);
      // small's windows are a tenth of medium's: 16 of them (four years, about 13,000 lots) before a
      // perfect forecast's deciles are within 3 points of their outcomes on most draws
      const cuts = Number(flags.cuts ?? (scale === "small" || scale === "tiny" ? 16 : 2));
      const scored: Scored[] = [];
      const baseRates: number[] = [];
      let deriveSeconds = 0;
      let addedSeconds = 0;
      for (let k = 1; k <= cuts; k++) {
        const first = T - k * UPCOMING_WINDOW;
        const from = monthDate(first);
        const to = monthDate(first + UPCOMING_WINDOW);
        const cutAsOf = addDays(from, -1);
        const copy = join(dataDir, "cut.db");
        copyFileSync(join(dataDir, "market.db"), copy);
        const db = new Database(copy);
        // the window's concluded lots with their outcome, then the copy as of the day before the window
        db.run(
          `CREATE TABLE scored AS SELECT id, artist_id, artwork_id, sale_datetime, status = 'sold' AND hammer_usd_cents > 0 AS sold, reserve_mark AS reserve,
           hammer_usd_cents / 100.0 AS hammer, estimate_min_usd_cents / 100.0 AS lo, estimate_max_usd_cents / 100.0 AS hi, estimate_min AS lo_native
         FROM lots WHERE sale_datetime >= ? AND sale_datetime < ? AND status IN ('sold', 'passed', 'withdrawn')`,
          [seconds(from), seconds(to)],
        );
        const before = db
          .query<{ n: number; s: number }, [number, number]>(
            "SELECT count(*) AS n, count(*) FILTER (WHERE status = 'sold') AS s FROM lots WHERE sale_datetime >= ? AND sale_datetime < ? AND status IN ('sold', 'passed', 'withdrawn')",
          )
          .get(seconds(addDays(from, -365)), seconds(from))!;
        baseRates.push(before.s / before.n);
        db.run(
          `UPDATE lots SET status = 'upcoming', sale_status = 'upcoming', hammer = NULL, premium = NULL, hammer_usd_cents = NULL, premium_usd_cents = NULL,
           sale_probability = NULL, expected_hammer_usd = NULL, expected_hammer_usd_low = NULL, expected_hammer_usd_high = NULL
         WHERE sale_datetime >= ? AND sale_datetime < ?`,
          [seconds(from), seconds(to)],
        );
        db.run("DELETE FROM lots WHERE sale_datetime >= ?", [seconds(to)]);
        db.run("UPDATE src_sales SET status = 'upcoming' WHERE start_datetime >= ? AND start_datetime < ?", [from, to]);
        db.run("DELETE FROM src_sales WHERE start_datetime >= ?", [to]);
        db.run("DROP INDEX IF EXISTS lots_sale_probability_known");
        db.run("DROP INDEX IF EXISTS lots_sale_probability");
        attachWorksOfFinished(db, copy);
        const d0 = performance.now();
        const derived = await deriveMarket(db, { asOf: cutAsOf });
        deriveSeconds += (performance.now() - d0) / 1000;
        addedSeconds += (derived.timings["upcoming lots' model"] ?? 0) + (derived.timings["upcoming lots' forecasts"] ?? 0);
        console.log(
          `  cut ${cutAsOf}: ${JSON.stringify(derived.upcoming)}, derive ${((performance.now() - d0) / 1000).toFixed(1)}s (model ${derived.timings["upcoming lots' model"]}s, writes ${derived.timings["upcoming lots' forecasts"]}s)`,
        );
        for (const r of db
          .query(
            `SELECT s.artist_id, s.artwork_id, date(s.sale_datetime, 'unixepoch') AS day, s.sold, s.reserve, s.hammer, s.lo, s.hi, s.lo_native,
                  l.sale_probability AS p, l.expected_hammer_usd AS eh, l.expected_hammer_usd_low AS elo, l.expected_hammer_usd_high AS ehi
           FROM scored s JOIN lots l ON l.id = s.id`,
          )
          .all() as (Omit<Scored, "month"> & { day: string })[])
          scored.push({ ...r, month: monthIndex(r.day) });
        db.close();
        rmSync(copy, { force: true });
        removeWorks(copy);
      }
      rmSync(dataDir, { recursive: true, force: true });

      const oracle = (s: Scored) => oracleChance(s, truth, T);
      // probability: calibration by decile (observed, and the oracle's expected rate), Brier skill against the base rate and the oracle's
      const withP = scored.filter((s) => s.p !== null);
      const model = decileTable(
        withP,
        (s) => s.p!,
        (s) => s.sold,
      );
      const base = baseRates.reduce((s, v) => s + v, 0) / baseRates.length;
      const reference = brier(withP, () => base);
      if (flags.dump) await Bun.write(`${flags.dump}-${scale}-${seed}.json`, JSON.stringify(withP.map((s) => ({ ...s, oracle: oracle(s) }))));
      // the hammer on the sold lots
      const hammer = hammerScores(scoredSold(withP));
      rows.push({
        scale,
        seed,
        lots: withP.length,
        sold: hammer.lots,
        calibration: model.worst,
        deciles: model.cells,
        oracleCalibration: decileTable(withP, oracle, (s) => s.sold).worst,
        expectedCalibration: decileTable(withP, (s) => s.p!, oracle).worst,
        ...(({ median, within }) => ({ perfectWorst: median, perfectWithin: within }))(perfectForecast(withP.map(oracle), seed)),
        bss: 1 - brier(withP, (s) => s.p!) / reference,
        oracleBss: 1 - brier(withP, oracle) / reference,
        mdape: hammer.mdape,
        mdapeMid: hammer.mdapeMid,
        mdapeGeo: hammer.mdapeGeo,
        coverage: hammer.coverage,
        deriveSeconds: deriveSeconds / cuts,
        addedSeconds: addedSeconds / cuts,
      });
      const r = rows[rows.length - 1]!;
      console.log(`  deciles (predicted/observed %): ${r.deciles}`);
      console.log(
        `  worst decile: the model's ${pct(r.calibration)}, against the oracle's expected rate ${pct(r.expectedCalibration)}; the oracle's own ${pct(r.oracleCalibration)}; ` +
          `a perfect forecast's on these lots ${pct(r.perfectWorst)} (median of ${DRAWS} draws), within 3 points in ${pct(r.perfectWithin)} of them`,
      );
      console.log(
        `  ${scale} seed ${seed}: ${r.lots} lots (${r.sold} sold), calibration ${pct(r.calibration)}, BSS ${r.bss.toFixed(3)} (oracle ${r.oracleBss.toFixed(3)}), MdAPE ${pct(r.mdape)} (midpoint ${pct(r.mdapeMid)}, geometric ${pct(r.mdapeGeo)}), coverage ${pct(r.coverage)}`,
      );
    }
  }

  const ok = (b: boolean) => (b ? "yes" : "no");
  console.log("\n| scale | seed | lots (sold) | worst decile | BSS | oracle BSS | gap | hammer MdAPE | midpoint MdAPE (arith. / geom.) | 80 % band | derive (model + writes) |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  const line = (label: string, seed: string, rs: Row[]) => {
    const m = (f: (r: Row) => number) => median(rs.map(f))!;
    console.log(
      `| ${label} | ${seed} | ${m((r) => r.lots)} (${m((r) => r.sold)}) | ${pct(m((r) => r.calibration))} | ${m((r) => r.bss).toFixed(3)} | ${m((r) => r.oracleBss).toFixed(3)} | ${m((r) => r.oracleBss - r.bss).toFixed(3)} | ${pct(m((r) => r.mdape))} | ${pct(m((r) => r.mdapeMid))} / ${pct(m((r) => r.mdapeGeo))} | ${pct(m((r) => r.coverage))} | ${m((r) => r.deriveSeconds).toFixed(1)}s (+${m((r) => r.addedSeconds).toFixed(2)}s) |`,
    );
  };
  for (const r of rows) line(r.scale, String(r.seed), [r]);
  for (const scale of scales) {
    const rs = rows.filter((r) => r.scale === scale);
    if (rs.length > 1) line(scale, "median", rs);
  }
  console.log("\ncalibration against its limit (worst decile; a perfect forecast's: outcomes drawn from the oracle's chances)\n");
  console.log("| scale | seed | lots | model, observed | model, against the expected rate | oracle's own | perfect forecast: median | perfect forecast: within 3 points |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.scale} | ${r.seed} | ${r.lots} | ${pct(r.calibration)} | ${pct(r.expectedCalibration)} | ${pct(r.oracleCalibration)} | ${pct(r.perfectWorst)} | ${pct(r.perfectWithin)} of draws |`,
    );
  console.log("\ntargets (medians over seeds):");
  for (const scale of scales) {
    const rs = rows.filter((r) => r.scale === scale);
    const m = (f: (r: Row) => number) => median(rs.map(f))!;
    console.log(
      `  ${scale}: every decile within 3 points ${ok(m((r) => r.calibration) <= 0.03)} (${rs.filter((r) => r.calibration <= 0.03).length}/${rs.length} seeds); ` +
        `hammer better than the midpoint ${ok(
          m((r) => r.mdape) <
            Math.min(
              m((r) => r.mdapeMid),
              m((r) => r.mdapeGeo),
            ),
        )}; ` +
        `band 80 % ± 3 ${ok(Math.abs(m((r) => r.coverage) - 0.8) <= 0.03)}; BSS ${m((r) => r.bss).toFixed(3)}, oracle ${m((r) => r.oracleBss).toFixed(3)}`,
    );
  }
}

/** A lot scored forward: its forecast, its outcome, and the baselines' chances of it. */
export interface ForwardLot extends Scored {
  /** The market's sale rate of the 12 months before the as-of date. */
  base: number;
  /** Its house's sale rate of those months, shrunk towards `base` with HOUSE_PRIOR pseudo-lots. */
  house: number;
  oracle: number;
}

/** Pseudo-lots of a house's sale rate (the model's house record shrinks by the same). */
const HOUSE_PRIOR = 50;

/** The forward figures of a set of scored lots (one market, or several pooled). */
export interface ForwardScores {
  lots: number;
  sold: number;
  calibration: ReturnType<typeof decileTable<ForwardLot>>;
  /** The model's worst decile against the oracle's chance of its lots (its error without the outcomes' noise). */
  expectedCalibration: number;
  /** Mean predicted chance, mean oracle's chance, observed sale rate. */
  meanP: number;
  meanOracle: number;
  /** A perfect forecast's worst decile on these lots (outcomes drawn from the oracle's chances): median, and the share of draws within 3 points. */
  perfectWorst: number;
  perfectWithin: number;
  bssBase: number;
  bssHouse: number;
  oracleBss: number;
  hammer: HammerScores;
}

export function scoreForward(lots: readonly ForwardLot[], seed: number): ForwardScores {
  const reference = brier(lots, (s) => s.base);
  const model = brier(lots, (s) => s.p!);
  const perfect = perfectForecast(
    lots.map((s) => s.oracle),
    seed,
  );
  return {
    lots: lots.length,
    sold: lots.filter((s) => s.sold).length,
    calibration: decileTable(
      lots,
      (s) => s.p!,
      (s) => s.sold,
    ),
    expectedCalibration: decileTable(
      lots,
      (s) => s.p!,
      (s) => s.oracle,
    ).worst,
    meanP: lots.reduce((s, l) => s + l.p!, 0) / lots.length,
    meanOracle: lots.reduce((s, l) => s + l.oracle, 0) / lots.length,
    perfectWorst: perfect.median,
    perfectWithin: perfect.within,
    bssBase: 1 - model / reference,
    bssHouse: 1 - model / brier(lots, (s) => s.house),
    oracleBss: 1 - brier(lots, (s) => s.oracle) / reference,
    hammer: hammerScores(scoredSold(lots)),
  };
}

interface ForwardRow {
  scale: string;
  seed: number;
  from: string;
  to: string;
  /** Upcoming lots at the as-of date, and those with a forecast. */
  upcoming: number;
  forecast: number;
  /** Forecast lots the feed resolved, by status. */
  resolved: Record<string, number>;
  /** Held but not yet published by their house (unknown), and not held (or not resolved) within the days. */
  awaiting: number;
  notHeld: number;
  scored: ForwardLot[];
  scores: ForwardScores;
  feedSeconds: number;
}

/** The forward test (the module's comment): the forecasts served before a feed, against its outcomes. */
async function forward(flags: Record<string, string | true>, scales: string[], seeds: number[], asOf: string): Promise<void> {
  const days = Number(flags.days ?? 70);
  const runs: { scale: string; seed: number; dataDir: string; own: boolean }[] = [];
  if (typeof flags.data === "string") {
    const truth = new Database(join(flags.data, "truth.db"), { readonly: true });
    const meta = (key: string) => truth.query<{ value: string }, [string]>("SELECT value FROM truth_meta WHERE key = ?").get(key)?.value;
    runs.push({ scale: meta("scale") ?? "?", seed: Number(meta("seed")), dataDir: flags.data, own: false });
    truth.close();
  } else for (const scale of scales) for (const seed of seeds) runs.push({ scale, seed, dataDir: "", own: true });
  const rows: ForwardRow[] = [];
  for (const run of runs) {
    const { scale, seed } = run;
    let dataDir = run.dataDir;
    if (run.own) {
      dataDir = mkdtempSync(join(tmpdir(), "artmarket-upcoming-forward-"));
      const summary = await seedMarket({ dataDir, scale: scale as never, seed, asOf, quiet: true, embed: false });
      console.log(`seeded ${scale} (seed ${seed}, as of ${asOf}): ${summary.counts.lots} lots in ${summary.seconds.toFixed(1)}s`);
    }
    // what the service serves before the feed: the upcoming lots' forecasts, as the API reads them
    const db = new Database(join(dataDir, "market.db"), { readonly: true });
    const from = db.query<{ value: string }, []>("SELECT value FROM market_meta WHERE key = 'as_of'").get()!.value;
    const lots = db
      .query(
        `SELECT id, artist_id, artwork_id, house_id, sale_datetime, reserve_mark AS reserve, currency, estimate_min AS lo_native,
                estimate_min_usd_cents / 100.0 AS lo, estimate_max_usd_cents / 100.0 AS hi,
                sale_probability AS p, expected_hammer_usd AS eh, expected_hammer_usd_low AS elo, expected_hammer_usd_high AS ehi
         FROM lots WHERE status = 'upcoming' ORDER BY id`,
      )
      .all() as (Omit<Scored, "month" | "sold" | "hammer"> & { id: number; house_id: number; sale_datetime: number; currency: string })[];
    // the base rate and each house's: the concluded lots of the 12 months before the as-of date
    const window = [seconds(addDays(from, -365)), seconds(addDays(from, 1))] as const;
    const before = db
      .query<{ n: number; s: number }, [number, number]>(
        "SELECT count(*) AS n, count(*) FILTER (WHERE status = 'sold') AS s FROM lots WHERE sale_datetime >= ? AND sale_datetime < ? AND status IN ('sold', 'passed', 'withdrawn')",
      )
      .get(...window)!;
    const base = before.s / before.n;
    const houseRate = new Map<number, number>();
    for (const h of db
      .query<{ house_id: number; n: number; s: number }, [number, number]>(
        "SELECT house_id, count(*) AS n, count(*) FILTER (WHERE status = 'sold') AS s FROM lots WHERE sale_datetime >= ? AND sale_datetime < ? AND status IN ('sold', 'passed', 'withdrawn') GROUP BY house_id",
      )
      .all(...window))
      houseRate.set(h.house_id, (h.s + HOUSE_PRIOR * base) / (h.n + HOUSE_PRIOR));
    db.close();

    // the feed: what the next days reveal
    const feedDir = join(dataDir, `forward-feed-${process.pid}`);
    const fed = await feedMarket({ dataDir, to: feedDir, days, quiet: true });
    console.log(
      `  fed ${days} days (${from} to ${fed.asOf}) in ${fed.seconds.toFixed(1)}s: ${fed.publishedSales} sales published (${fed.resolved.sold ?? 0} sold, ${fed.resolved.passed ?? 0} passed, ${fed.resolved.withdrawn ?? 0} withdrawn), ${fed.pendingSales} awaiting their houses`,
    );
    const outcome = new Map<number, { status: string; hammer?: number }>();
    for (const line of readFileSync(join(feedDir, "lots.jsonl"), "utf8").split("\n"))
      if (line) {
        const r = JSON.parse(line) as { id: number; status: string; hammer?: number };
        outcome.set(r.id, r);
      }
    const newRates = new Map<string, number>();
    for (const line of readFileSync(join(feedDir, "fx_rates.jsonl"), "utf8").split("\n"))
      if (line) {
        const r = JSON.parse(line) as { code: string; day: string; usd_per_unit: number };
        newRates.set(`${r.code} ${r.day}`, r.usd_per_unit);
      }
    rmSync(feedDir, { recursive: true, force: true });
    // the sale day's rate, as the feed converts a hammer (a day after the as-of date: the feed's own)
    const checkRates = new Database(join(dataDir, "market.db"), { readonly: true });
    const rateQuery = checkRates.query<{ r: number }, [string, string]>("SELECT usd_per_unit AS r FROM fx_rates WHERE code = ? AND day <= ? ORDER BY day DESC LIMIT 1");
    const rateOn = (code: string, day: string): number => {
      if (code === "USD") return 1;
      const rate = dayNumber(day) > dayNumber(from) ? newRates.get(`${code} ${day}`) : rateQuery.get(code, day)?.r;
      if (rate === undefined) throw new Error(`no FX rate for ${code} on ${day}`);
      return rate;
    };
    const truth = readTruth(dataDir);
    const resolved: Record<string, number> = {};
    let awaiting = 0;
    let notHeld = 0;
    const scored: ForwardLot[] = [];
    const forecast = lots.filter((l) => l.p !== null);
    for (const l of forecast) {
      const o = outcome.get(l.id);
      if (!o || !["sold", "passed", "withdrawn"].includes(o.status)) {
        if (o?.status === "unknown") awaiting++;
        else notHeld++;
        continue;
      }
      resolved[o.status] = (resolved[o.status] ?? 0) + 1;
      const day = new Date(l.sale_datetime * 1000).toISOString().slice(0, 10);
      const usdPerNative = rateOn(l.currency, day);
      const sold = o.status === "sold" && (o.hammer ?? 0) > 0 ? 1 : 0;
      const s: Scored = {
        artist_id: l.artist_id,
        artwork_id: l.artwork_id,
        month: monthIndex(day),
        sold,
        reserve: l.reserve,
        hammer: sold ? o.hammer! * usdPerNative : null,
        lo: l.lo,
        hi: l.hi,
        lo_native: l.lo_native,
        p: l.p,
        eh: l.eh,
        elo: l.elo,
        ehi: l.ehi,
        usd_per_native: usdPerNative,
      };
      scored.push({ ...s, base, house: houseRate.get(l.house_id) ?? base, oracle: oracleChance(s, truth, Number.MAX_SAFE_INTEGER) });
    }
    checkRates.close();
    if (run.own) rmSync(dataDir, { recursive: true, force: true });
    if (flags.dump) await Bun.write(`${flags.dump}-forward-${scale}-${seed}.json`, JSON.stringify(scored));
    const row: ForwardRow = {
      scale,
      seed,
      from,
      to: fed.asOf,
      upcoming: lots.length,
      forecast: forecast.length,
      resolved,
      awaiting,
      notHeld,
      scored,
      scores: scoreForward(scored, seed),
      feedSeconds: fed.seconds,
    };
    rows.push(row);
    const f = row.scores;
    console.log(
      `  ${scale} seed ${seed}: ${row.forecast} of ${row.upcoming} upcoming lots with a forecast; scored ${f.lots} (${resolved.sold ?? 0} sold, ${resolved.passed ?? 0} passed, ${resolved.withdrawn ?? 0} withdrawn), ` +
        `unresolved ${awaiting + notHeld} (${awaiting} awaiting publication, ${notHeld} not yet held)`,
    );
    console.log(`  deciles (predicted/observed %): ${f.calibration.cells}`);
  }

  const pooled: { label: string; seed: string; scores: ForwardScores; rs: ForwardRow[] }[] = [];
  for (const r of rows) pooled.push({ label: r.scale, seed: String(r.seed), scores: r.scores, rs: [r] });
  const pool = (label: string, rs: ForwardRow[]) => {
    if (rs.length > 1)
      pooled.push({
        label,
        seed: "pooled",
        scores: scoreForward(
          rs.flatMap((r) => r.scored),
          rs[0]!.seed,
        ),
        rs,
      });
  };
  const scaleNames = [...new Set(rows.map((r) => r.scale))];
  for (const scale of scaleNames)
    pool(
      scale,
      rows.filter((r) => r.scale === scale),
    );
  if (scaleNames.length > 1) pool("all", rows);

  const sum = (rs: ForwardRow[], f: (r: ForwardRow) => number) => rs.reduce((s, r) => s + f(r), 0);
  console.log(`\nforward-tested: the forecasts served at the as-of date, scored on the outcomes of the ${days} days after it\n`);
  console.log(
    "| scale | seed | upcoming (with a forecast) | scored (sold) | unresolved: awaiting publication / not yet held | sale rate: predicted / oracle / observed | worst decile | against the oracle's chance | a perfect forecast's (median) | BSS vs base rate | BSS vs house rate | oracle BSS | hammer MdALE: model / midpoint / geom. | hammer MdAPE: model / midpoint / geom. | 80 % band |",
  );
  console.log(`|${"---|".repeat(15)}`);
  for (const { label, seed, scores: f, rs } of pooled) {
    const h = f.hammer;
    console.log(
      `| ${label} | ${seed} | ${sum(rs, (r) => r.upcoming)} (${sum(rs, (r) => r.forecast)}) | ${f.lots} (${f.sold}) | ${sum(rs, (r) => r.awaiting)} / ${sum(rs, (r) => r.notHeld)} | ` +
        `${pct(f.meanP)} / ${pct(f.meanOracle)} / ${pct(f.sold / f.lots)} | ${pct(f.calibration.worst)} | ${pct(f.expectedCalibration)} | ${pct(f.perfectWorst)} | ${f.bssBase.toFixed(3)} | ${f.bssHouse.toFixed(3)} | ${f.oracleBss.toFixed(3)} | ` +
        `${h.mdale.toFixed(3)} / ${h.mdaleMid.toFixed(3)} / ${h.mdaleGeo.toFixed(3)} | ${pct(h.mdape)} / ${pct(h.mdapeMid)} / ${pct(h.mdapeGeo)} | ${pct(h.coverage)} (${h.lots}) |`,
    );
  }
  console.log("\ncalibration by decile of the sale probability: predicted / observed % (lots)\n");
  console.log(`| scale | seed | ${Array.from({ length: 10 }, (_, d) => `d${d + 1}`).join(" | ")} | max gap |`);
  console.log(`|---|---|${"---|".repeat(11)}`);
  for (const { label, seed, scores: f } of pooled)
    console.log(
      `| ${label} | ${seed} | ${f.calibration.deciles.map((d) => `${(100 * d.predicted).toFixed(1)} / ${(100 * d.observed).toFixed(1)} (${d.n})`).join(" | ")} | ${pct(f.calibration.worst)} |`,
    );
}

if (import.meta.main) {
  const { flags } = parseArgs(process.argv.slice(2), ["forward"]);
  const scales = String(flags.scales ?? flags.scale ?? "small").split(",");
  const seeds = String(flags.seeds ?? flags.seed ?? "1986")
    .split(",")
    .map(Number);
  const asOf = (flags["as-of"] as string) ?? "2026-06-30";
  if (flags.forward) await forward(flags, scales, seeds, asOf);
  else await backtest(flags, scales, seeds, asOf);
}
