#!/usr/bin/env bun
/**
 * bench/analytics: throughput of the index models at market scale (src/analytics/index-model.ts).
 *
 *   bun bench/analytics.ts [--artists 100000] [--obs 300] [--months 490] [--pairs 10000000] [--mle 10000]
 *
 * 1. smoothIndex over `artists` synthetic artists × `obs` observations (default 30M observations,
 *    490 months): observations are generated per artist into reused columns (generation is not
 *    timed), then smoothed with one SmoothWorkspace (the derivation step's hot path), and again
 *    without a workspace (fresh arrays per call) for comparison.
 * 2. estimateNoiseVariances (maximum likelihood of q) for the first `mle` artists.
 * 3. RepeatSalesAccumulator: `pairs` random pairs (generated up front, not timed) added by
 *    addColumns, then one solve of the (months−1)² system.
 * Prints the throughput; nothing is written.
 */
import { estimateNoiseVariances, RepeatSalesAccumulator, smoothIndex, SmoothWorkspace } from "../src/analytics/index-model";
import { mulberry32 } from "../src/market/random";

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const artists = arg("artists", 100_000);
const obsPer = arg("obs", 300);
const months = arg("months", 490);
const nPairs = arg("pairs", 10_000_000);
const nMle = arg("mle", 10_000);

// mulberry32 + Box–Muller: deterministic and cheap
let u = mulberry32(12345);
const z = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());

const fmt = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(1));
const opts = { processVar: 0.05 ** 2, obsVar: 0.25 ** 2, initVar: Infinity };

const month = new Int32Array(obsPer);
const y = new Float64Array(obsPer);
const truth = new Float64Array(months);
function makeArtist(): void {
  truth[0] = 0;
  for (let t = 1; t < months; t++) truth[t] = truth[t - 1]! + 0.05 * z();
  for (let i = 0; i < obsPer; i++) {
    const t = Math.floor(u() * months);
    month[i] = t;
    y[i] = truth[t]! + 0.25 * z();
  }
}
const cols = { month, y };

console.log(`smoothIndex: ${fmt(artists)} artists × ${obsPer} observations = ${fmt(artists * obsPer)} observations, ${months} months`);
for (const mode of ["workspace", "fresh arrays"] as const) {
  const ws = mode === "workspace" ? new SmoothWorkspace() : undefined;
  let t = 0;
  let check = 0;
  u = mulberry32(12345);
  for (let a = 0; a < artists; a++) {
    makeArtist();
    const t0 = performance.now();
    const r = smoothIndex(cols, months, opts, ws);
    t += performance.now() - t0;
    check += r.level[months - 1]!;
  }
  const s = t / 1000;
  console.log(
    `  ${mode.padEnd(13)} ${s.toFixed(2)} s   ${fmt((artists * obsPer) / s)} obs/s   ${fmt(artists / s)} artists/s   ` +
      `${((t * 1000) / artists).toFixed(1)} µs/artist   (checksum ${check.toFixed(3)})`,
  );
}

if (nMle > 0) {
  u = mulberry32(999);
  let t = 0;
  for (let a = 0; a < nMle; a++) {
    makeArtist();
    const t0 = performance.now();
    estimateNoiseVariances(cols, months);
    t += performance.now() - t0;
  }
  console.log(`estimateNoiseVariances (MLE of q): ${fmt(nMle)} artists in ${(t / 1000).toFixed(2)} s   ${((t * 1000) / nMle).toFixed(0)} µs/artist`);
}

if (nPairs > 0) {
  console.log(`RepeatSalesAccumulator: ${fmt(nPairs)} pairs, ${months} months`);
  const from = new Int32Array(nPairs);
  const to = new Int32Array(nPairs);
  const lr = new Float64Array(nPairs);
  const idx = new Float64Array(months);
  for (let t = 1; t < months; t++) idx[t] = idx[t - 1]! + 0.005 + 0.03 * z();
  for (let i = 0; i < nPairs; i++) {
    let a = Math.floor(u() * months);
    let b = Math.floor(u() * months);
    if (a > b) [a, b] = [b, a];
    if (a === b) b = Math.min(months - 1, a + 1) === a ? a - 1 : a + 1;
    from[i] = a;
    to[i] = b;
    lr[i] = idx[b]! - idx[a]! + 0.3 * z();
  }
  const acc = new RepeatSalesAccumulator(months);
  const t0 = performance.now();
  acc.addColumns(from, to, lr);
  const t1 = performance.now();
  const I = acc.solve(10);
  const t2 = performance.now();
  let maxErr = 0;
  for (let t = 0; t < months; t++) maxErr = Math.max(maxErr, Math.abs(I[t]! - idx[t]!));
  const s = (t1 - t0) / 1000;
  console.log(
    `  add   ${s.toFixed(2)} s   ${fmt(nPairs / s)} pairs/s\n` +
      `  solve ${(t2 - t1).toFixed(0)} ms (Cholesky of ${months - 1}×${months - 1})\n` +
      `  max |index − truth| = ${maxErr.toFixed(4)} (log units; pairs with noise σ 0.3)`,
  );
}
