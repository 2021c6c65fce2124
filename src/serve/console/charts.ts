// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * The console's charts: uPlot for time series with an 80 % band, a small SVG for sparklines. Each
 * chart's element keeps what it draws (`chartData`: times in seconds, then each series) so that
 * the browser tests compare the picture's data with the API's.
 */
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { IndexPoint } from "./api";

export interface ChartElement extends HTMLElement {
  chartData?: (number | null)[][];
  plot?: uPlot;
}

const SVG = "http://www.w3.org/2000/svg";

export function seconds(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

/** A sparkline of an index as an SVG path (no axes), its trend colouring the stroke. */
export function sparkline(points: readonly IndexPoint[], width = 120, height = 28): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  svg.setAttribute("class", "spark");
  const values = points.map((p) => p.value);
  svg.dataset.points = String(values.length);
  if (values.length < 2) {
    svg.setAttribute("aria-label", "no index");
    return svg;
  }
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const d = values.map((v, i) => `${i ? "L" : "M"}${((i / (values.length - 1)) * width).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`).join("");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("class", values[values.length - 1]! >= values[0]! ? "up" : "down");
  svg.append(path);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `index from ${Math.round(values[0]!)} to ${Math.round(values[values.length - 1]!)}`);
  return svg;
}

export interface BandSeries {
  label: string;
  points: readonly IndexPoint[];
  /** Drawn as points (hammer prices) rather than a line. */
  dots?: boolean;
  /** The line's colour (default: by the series' place). */
  colour?: string;
  /** Drawn dashed (an overlay such as the global index); an array gives the dash pattern. */
  dashed?: boolean | readonly number[];
}

export interface BandOptions {
  /** A logarithmic value axis: overlays that grow by orders of magnitude (Bitcoin) beside an index. */
  log?: boolean;
}

export interface Marker {
  time: number;
  label: string;
}

const money = (v: number | null) =>
  v === null ? "–" : v >= 1e9 ? `${(v / 1e9).toFixed(2)}B` : v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : v.toFixed(0);
/** An axis tick: at most three significant digits, so that 100B fits the axis as well as 35.2k. */
const tick = (v: number) => {
  const [d, unit] = v >= 1e9 ? [1e9, "B"] : v >= 1e6 ? [1e6, "M"] : v >= 1e3 ? [1e3, "k"] : [1, ""];
  return `${Number((v / d).toPrecision(3))}${unit}`;
};
/** A log axis names its powers of ten only (uPlot puts a tick at each of 1…9 times them). */
const decade = (v: number) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;

/**
 * A time chart: each series with its 80 % band (value_low…value_high) filled behind its line, the
 * markers (events) as ticks on the time axis. `chartData` holds the times, then for each series its
 * values, followed by the band's high and low where the series has a band; then, for each series
 * with extrapolated points (an artist's index before their first sale), those points as a dashed,
 * faded line of its own with a legend entry (joined to the first observed point), which the
 * series' own line and band leave out. The series share one time axis (the union of their
 * times), so a line spans the times where only another series has a point (a monthly overlay on a
 * daily index).
 */
export function bandChart(el: ChartElement, series: readonly BandSeries[], markers: readonly Marker[] = [], height = 320, options: BandOptions = {}): uPlot {
  el.plot?.destroy();
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => seconds(p.time))))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const data: (number | null)[][] = [times];
  const opts: uPlot.Series[] = [{}];
  const bands: uPlot.Band[] = [];
  const colours = ["#1d4ed8", "#b45309", "#047857", "#7c3aed"];
  /** Lines of extrapolated points, drawn after every series (so that the others keep their places in `chartData`). */
  const guesses: { label: string; colour: string; values: (number | null)[] }[] = [];
  series.forEach((s, n) => {
    const value = times.map(() => null as number | null);
    const low = times.map(() => null as number | null);
    const high = times.map(() => null as number | null);
    const guessed = times.map(() => null as number | null);
    let firstObserved = -1;
    for (const p of s.points) {
      const i = index.get(seconds(p.time))!;
      // an extrapolated point (before the first sale the index rests on) is drawn apart: dashed, faded, without a band
      if (p.extrapolated && !s.dots) {
        guessed[i] = p.value;
        continue;
      }
      if (firstObserved < 0 || i < firstObserved) firstObserved = i;
      value[i] = p.value;
      low[i] = p.value_low ?? null;
      high[i] = p.value_high ?? null;
    }
    const colour = s.colour ?? colours[n % colours.length]!;
    if (guessed.some((v) => v !== null)) {
      // the dashed line meets the solid one at the first observed point
      if (firstObserved >= 0) guessed[firstObserved] = value[firstObserved]!;
      guesses.push({ label: `${s.label}, extrapolated (before its first sale)`, colour, values: guessed });
    }
    const base = data.length;
    data.push(value);
    opts.push(
      s.dots
        ? { label: s.label, stroke: colour, width: 0, points: { show: true, size: 7, fill: colour }, value: (_u, v) => money(v) }
        : {
            label: s.label,
            stroke: colour,
            width: 2,
            dash: s.dashed === true ? [6, 4] : s.dashed ? [...s.dashed] : undefined,
            spanGaps: true,
            points: { show: false },
            value: (_u, v) => money(v),
          },
    );
    // the band's edges only where the series has a band (an overlay has none)
    if (high.some((v) => v !== null)) {
      data.push(high, low);
      opts.push(
        { label: "80 % high", stroke: `${colour}55`, width: 1, spanGaps: true, points: { show: false }, value: (_u, v) => money(v) },
        { label: "80 % low", stroke: `${colour}55`, width: 1, spanGaps: true, points: { show: false }, value: (_u, v) => money(v) },
      );
      bands.push({ series: [base + 1, base + 2], fill: `${colour}22` });
    }
  });
  for (const g of guesses) {
    data.push(g.values);
    opts.push({ label: g.label, stroke: `${g.colour}80`, width: 1.5, dash: [3, 4], spanGaps: true, points: { show: false }, value: (_u, v) => money(v) });
  }
  el.chartData = data;
  el.dataset.extrapolated = String(guesses.reduce((n, g) => n + g.values.filter((v) => v !== null).length, 0));
  el.dataset.series = String(series.length);
  el.dataset.points = String(times.length);
  el.dataset.scale = options.log ? "log" : "linear";
  const width = Math.max(280, el.clientWidth || 600);
  const plot = new uPlot(
    {
      width,
      height,
      series: opts,
      bands,
      scales: {
        // points (hammers) at the ends of the range keep their whole dot
        x: { time: true, range: series.some((s) => s.dots) ? (_u, min, max) => [min - (max - min || 86_400) * 0.02, max + (max - min || 86_400) * 0.02] : undefined },
        y: options.log ? { distr: 3, log: 10 } : {},
      },
      axes: [{}, { values: (_u, ticks) => ticks.map((t) => (options.log && !decade(t) ? "" : tick(t))), size: 60 }],
      legend: { live: true },
      hooks: {
        draw: [
          (u) => {
            if (!markers.length) return;
            const ctx = u.ctx;
            ctx.save();
            ctx.fillStyle = "#9333ea";
            const y = u.bbox.top + u.bbox.height;
            for (const m of markers) {
              const x = u.valToPos(m.time, "x", true);
              if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
              ctx.beginPath();
              ctx.moveTo(x, y);
              ctx.lineTo(x - 5 * devicePixelRatio, y + 8 * devicePixelRatio);
              ctx.lineTo(x + 5 * devicePixelRatio, y + 8 * devicePixelRatio);
              ctx.fill();
            }
            ctx.restore();
          },
        ],
      },
    },
    data as uPlot.AlignedData,
    el,
  );
  el.plot = plot;
  return plot;
}

export interface Bar {
  /** YYYY-MM-DD */
  time: string;
  value: number;
}

/**
 * Bars over days (DU per day): one bar a day, in the order given. The element keeps
 * `chartData` = [times in seconds, values] like the band charts.
 */
export function barChart(el: ChartElement, bars: readonly Bar[], label: string, height = 220): uPlot {
  el.plot?.destroy();
  const data: number[][] = [bars.map((b) => seconds(b.time)), bars.map((b) => b.value)];
  el.chartData = data;
  el.dataset.series = "1";
  el.dataset.points = String(bars.length);
  const width = Math.max(280, el.clientWidth || 600);
  const plot = new uPlot(
    {
      width,
      height,
      series: [{}, { label, stroke: "#1d4ed8", fill: "#1d4ed8aa", width: 1, paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } }],
      scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [{}, { values: (_u, ticks) => ticks.map((t) => money(t)), size: 60 }],
      legend: { live: true },
    },
    data as uPlot.AlignedData,
    el,
  );
  el.plot = plot;
  return plot;
}

export interface Stack {
  label: string;
  colour: string;
  /** One value per column, aligned with the columns. */
  values: readonly number[];
}

/**
 * Stacked columns (lots by outcome per year, works by medium per creation year) as an SVG that
 * stretches to its box's width: one column per entry of `columns`, its stacks from the bottom up,
 * each column's sum in its tooltip as `describe` writes it; the first, middle and last column
 * named under it and a key of the stacks. The element keeps `chartData` = [columns, then each
 * stack's values] like the uPlot charts.
 */
export function stackedBars(el: ChartElement, columns: readonly number[], stacks: readonly Stack[], describe: (column: number, i: number) => string, summary: string): void {
  const height = 100;
  const step = 10;
  const totals = columns.map((_c, i) => stacks.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = Math.max(...totals, 0) || 1;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${columns.length * step} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("class", "stacked");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", summary);
  columns.forEach((column, i) => {
    const g = document.createElementNS(SVG, "g");
    g.dataset.column = String(column);
    const title = document.createElementNS(SVG, "title");
    title.textContent = describe(column, i);
    g.append(title);
    // a full-height hit area, so that a short column still shows its tooltip
    const hit = document.createElementNS(SVG, "rect");
    for (const [k, v] of Object.entries({ x: i * step, y: 0, width: step, height, fill: "transparent" })) hit.setAttribute(k, String(v));
    g.append(hit);
    let top = height;
    for (const s of stacks) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const size = (v / max) * height;
      top -= size;
      const rect = document.createElementNS(SVG, "rect");
      for (const [k, val] of Object.entries({ x: i * step + 1, y: top, width: step - 2, height: size, fill: s.colour })) rect.setAttribute(k, String(val));
      g.append(rect);
    }
    svg.append(g);
  });
  const axis = document.createElement("div");
  axis.className = "axis";
  const mid = columns[Math.floor((columns.length - 1) / 2)];
  for (const c of [columns[0], columns.length > 2 ? mid : undefined, columns.length > 1 ? columns[columns.length - 1] : undefined]) {
    const span = document.createElement("span");
    span.textContent = c === undefined ? "" : String(c);
    axis.append(span);
  }
  const key = document.createElement("div");
  key.className = "key";
  for (const s of stacks) {
    const item = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = s.colour;
    item.append(swatch, s.label);
    key.append(item);
  }
  el.replaceChildren(svg, axis, key);
  el.chartData = [[...columns], ...stacks.map((s) => [...s.values])];
  el.dataset.series = String(stacks.length);
  el.dataset.points = String(columns.length);
  el.dataset.max = String(Math.max(...totals, 0));
}

/** Keeps each chart as wide as its container. */
export function fitCharts(root: ParentNode): void {
  for (const el of root.querySelectorAll<ChartElement>(".chart")) {
    if (el.plot) el.plot.setSize({ width: Math.max(280, el.clientWidth), height: el.plot.height });
  }
}
