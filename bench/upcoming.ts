/**
 * bench/upcoming: how well the upcoming lots' forecasts (src/build/derive/upcoming.ts) do, on
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
 */
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../src/analytics/stats";
import { attachWorksOfFinished, removeWorks } from "../src/build/db/works-file";
import { deriveMarket } from "../src/build/derive";
import { normalCdf, UPCOMING_WINDOW } from "../src/build/derive/upcoming";
import { seedMarket } from "../src/build/seed";
import { hammerIncrement, MODEL } from "../src/build/seed/market";
import { TRUTH_STEP, unpackLogIndex } from "../src/build/seed/truth";
import { monthDate, monthIndex } from "../src/market/calendar";
import { addDays } from "../src/market/time";
import { Random } from "../src/market/random";
import { parseArgs } from "../src/platform/config";

const { flags } = parseArgs(process.argv.slice(2));
const scales = String(flags.scales ?? flags.scale ?? "small").split(",");
const seeds = String(flags.seeds ?? flags.seed ?? "1986")
  .split(",")
  .map(Number);
const asOf = (flags["as-of"] as string) ?? "2026-06-30";

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

interface Scored {
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
}

/** The least hammer (sale currency) that the bidding increment rounds to `low` or more (hammerIncrement is monotone). */
function clearingHammer(low: number): number {
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
function perfectForecast(chances: number[], seed: number): { median: number; within: number } {
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

const seconds = (s: string) => Math.floor(Date.parse(`${s}T00:00:00Z`) / 1000);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const rows: Row[] = [];

for (const scale of scales) {
  for (const seed of seeds) {
    const dataDir = mkdtempSync(join(tmpdir(), "artmarket-upcoming-"));
    const summary = await seedMarket({ dataDir, scale: scale as never, seed, asOf, quiet: true, embed: false });
    console.log(`seeded ${scale} (seed ${seed}, as of ${asOf}): ${summary.counts.lots} lots in ${summary.seconds.toFixed(1)}s`);
    const truth = new Database(join(dataDir, "truth.db"), { readonly: true });
    const trueIndex = new Map<number, Float64Array>();
    for (const r of truth.query("SELECT artist_id, first_log_index, log_index_steps FROM artist_truth").iterate() as Iterable<{
      artist_id: number;
      first_log_index: number;
      log_index_steps: Uint8Array;
    }>)
      trueIndex.set(r.artist_id, unpackLogIndex(r.first_log_index, r.log_index_steps));
    const trueWork = new Map<number, number>();
    for (const r of truth.query("SELECT artwork_id, hedonic + quality AS v FROM artwork_truth").iterate() as Iterable<{ artwork_id: number; v: number }>)
      trueWork.set(r.artwork_id, r.v * TRUTH_STEP);
    truth.close();

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

    // the oracle: the generator's chance of each lot from the truth (the work's value that month,
    // the reserve at the low estimate, the sale noise, the withdrawals, the hammer rounded to the
    // house's bidding increment: it clears a low estimate L from L − increment/2)
    const oracle = (s: Scored) => {
      const keep = 1 - MODEL.withdrawnRate;
      const v = (trueWork.get(s.artwork_id) ?? 0) + (trueIndex.get(s.artist_id)?.[Math.min(T, s.month)] ?? 0);
      if (!s.reserve || !(s.lo! > 0) || !(s.lo_native! > 0)) return keep;
      const low = s.lo_native! * MODEL.reserveOfLow;
      const threshold = clearingHammer(low);
      return keep * normalCdf((v - Math.log((threshold * s.lo!) / s.lo_native!)) / MODEL.saleNoise);
    };
    // probability: calibration by decile (observed, and the oracle's expected rate), Brier skill against the base rate and the oracle's
    const withP = scored.filter((s) => s.p !== null);
    const decileTable = (f: (s: Scored) => number, outcome: (s: Scored) => number) => {
      const sorted = [...withP].sort((a, b) => f(a) - f(b));
      let worst = 0;
      const cells: string[] = [];
      for (let d = 0; d < 10; d++) {
        const group = sorted.slice(Math.floor((d * sorted.length) / 10), Math.floor(((d + 1) * sorted.length) / 10));
        const predicted = group.reduce((s, g) => s + f(g), 0) / group.length;
        const observed = group.reduce((s, g) => s + outcome(g), 0) / group.length;
        worst = Math.max(worst, Math.abs(observed - predicted));
        cells.push(`${(100 * predicted).toFixed(0)}/${(100 * observed).toFixed(0)}`);
      }
      return { worst, cells: cells.join(" ") };
    };
    const model = decileTable(
      (s) => s.p!,
      (s) => s.sold,
    );
    const worst = model.worst;
    const deciles = [model.cells];
    const base = baseRates.reduce((s, v) => s + v, 0) / baseRates.length;
    const brier = (f: (s: Scored) => number) => withP.reduce((s, g) => s + (f(g) - g.sold) ** 2, 0) / withP.length;
    const reference = brier(() => base);
    if (flags.dump) await Bun.write(`${flags.dump}-${scale}-${seed}.json`, JSON.stringify(withP.map((s) => ({ ...s, oracle: oracle(s) }))));
    // the hammer on the sold lots
    const sold = withP.filter((s) => s.sold && s.hammer! > 0 && s.eh !== null && s.lo! > 0 && s.hi! > 0);
    const ape = (x: number, h: number) => Math.abs(x / h - 1);
    rows.push({
      scale,
      seed,
      lots: withP.length,
      sold: sold.length,
      calibration: worst,
      deciles: deciles.join(" "),
      oracleCalibration: decileTable(oracle, (s) => s.sold).worst,
      expectedCalibration: decileTable((s) => s.p!, oracle).worst,
      ...(({ median, within }) => ({ perfectWorst: median, perfectWithin: within }))(perfectForecast(withP.map(oracle), seed)),
      bss: 1 - brier((s) => s.p!) / reference,
      oracleBss: 1 - brier(oracle) / reference,
      mdape: median(sold.map((s) => ape(s.eh!, s.hammer!)))!,
      mdapeMid: median(sold.map((s) => ape((s.lo! + s.hi!) / 2, s.hammer!)))!,
      mdapeGeo: median(sold.map((s) => ape(Math.sqrt(s.lo! * s.hi!), s.hammer!)))!,
      coverage: sold.filter((s) => s.hammer! >= s.elo! && s.hammer! <= s.ehi!).length / sold.length,
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
