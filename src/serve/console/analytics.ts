// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * The artist page's sales volume and career path (GET /v1/artists/{id}/sales-volume,
 * career-path-count and career-path-lae: 10 DU each, the analytics entitlement): stacked columns by
 * year and a table of their totals. A plan without analytics gets the API's 403, shown in place
 * with its reason, like the page's other analytics.
 */
import { type CareerPath, call, type SalesVolume } from "./api";
import { type ChartElement, type Stack, stackedBars } from "./charts";
import { categories, h, int, share, slot, usd } from "./ui";

/** The outcomes of the sales volume, bottom up, in the colours of a sale's outcome bar. */
const OUTCOMES = [
  { field: "lots_above_estimate", label: "sold above the estimate", short: "above", colour: "#047857" },
  { field: "lots_within_estimate", label: "sold within", short: "within", colour: "#34d399" },
  { field: "lots_below_estimate", label: "sold below", short: "below", colour: "#f59e0b" },
  { field: "lots_not_sold", label: "bought in", short: "bought in", colour: "#9ca3af" },
] as const;

type VolumeItem = SalesVolume["items"][number];

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** One row of the volume table: the lots of a category (or all) by outcome, over every year. */
function volumeRow(item: VolumeItem, name: string): HTMLElement {
  const [above, within, below, passed] = OUTCOMES.map((o) => sum(item[o.field]));
  const sold = above! + within! + below!;
  const offered = sold + passed!;
  return h(
    "tr",
    { "data-category-id": item.category_id ?? "all", "data-offered": offered, "data-sold": sold },
    h("th", { scope: "row" }, name),
    h("td", { class: "num" }, int(offered)),
    h("td", { class: "num" }, int(sold)),
    h("td", { class: "num" }, int(above)),
    h("td", { class: "num" }, int(within)),
    h("td", { class: "num" }, int(below)),
    h("td", { class: "num" }, int(passed)),
    h("td", { class: "num" }, offered ? share(sold / offered) : "–"),
  );
}

/** Lots by year and outcome: the columns of all lots, and a row per category (their names read once per key). */
export function salesVolume(el: HTMLElement, id: number): void {
  slot(el, "The sales volume", async () => {
    const [volume, names] = await Promise.all([
      call("/v1/artists/{id}/sales-volume", { id }),
      // the rows fall back to the category's id when the names cannot be read
      categories().catch(() => []),
    ]);
    const all = volume.items.find((i) => i.category_id === null);
    if (!all || !all.dates.length || !sum(all.dates.map((_d, i) => sum(OUTCOMES.map((o) => all[o.field][i] ?? 0))))) return h("p", {}, "No lots at auction.");
    const years = all.dates.map((d) => Number(d.slice(0, 4)));
    const stacks: Stack[] = OUTCOMES.map((o) => ({ label: o.label, colour: o.colour, values: all[o.field] }));
    const chart: ChartElement = h("div", { class: "stacked-chart", id: "artist-volume-chart" });
    const offered = sum(stacks.map((s) => sum(s.values)));
    stackedBars(
      chart,
      years,
      stacks,
      (year, i) => `${year}: ${OUTCOMES.map((o) => `${all[o.field][i] ?? 0} ${o.short}`).join(", ")}`,
      `lots offered each year ${years[0]}–${years[years.length - 1]}: ${offered} in all`,
    );
    const named = new Map(names.map((c) => [c.id, c.name]));
    return [
      chart,
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "grid small", id: "artist-volume-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Category", "Offered", "Sold", "Above", "Within", "Below", "Bought in", "Sold (share)"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            {},
            volume.items.map((item) => volumeRow(item, item.category_id === null ? "All categories" : (named.get(item.category_id) ?? `Category ${item.category_id}`))),
          ),
        ),
      ),
    ];
  });
}

/** The media's colours, largest first; the media past them are summed as "other media". */
const MEDIUM_COLOURS = ["#1d4ed8", "#b45309", "#047857", "#be123c", "#0e7490", "#ca8a04", "#7c3aed"];

type Measure = "count" | "value";

/** The career path as stacked columns (one per creation year) and a table of each medium's total, share, years and peak. */
function careerView(path: CareerPath): HTMLElement | HTMLElement[] {
  const count = path.unit === "artworks";
  const format = (v: number) => (count ? int(v) : usd(v));
  const items = path.items.filter((m) => m.points.length);
  if (!items.length) return h("p", {}, "No works with a known creation year.");
  const years = items[0]!.points.map((p) => p.year);
  const shown = items.slice(0, MEDIUM_COLOURS.length);
  const rest = items.slice(MEDIUM_COLOURS.length);
  const stacks: Stack[] = shown.map((m, n) => ({ label: m.medium, colour: MEDIUM_COLOURS[n]!, values: m.points.map((p) => p.value) }));
  if (rest.length) stacks.push({ label: "other media", colour: "#9ca3af", values: years.map((_y, i) => sum(rest.map((m) => m.points[i]?.value ?? 0))) });
  const total = sum(items.map((m) => sum(m.points.map((p) => p.value))));
  const chart: ChartElement = h("div", { class: "stacked-chart", id: "artist-career-chart", "data-unit": path.unit });
  stackedBars(
    chart,
    years,
    stacks,
    (year, i) => `${year}: ${stacks.map((s) => `${s.label} ${format(s.values[i] ?? 0)}`).join(", ")}`,
    `${count ? "works" : "estimated value of the works"} by creation year ${years[0]}–${years[years.length - 1]}: ${format(total)} in all`,
  );
  return [
    chart,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid small", id: "artist-career-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["Medium", count ? "Works" : "Estimated value", "Share", "Years", "Peak year"].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        h(
          "tbody",
          {},
          items.map((m) => {
            const made = m.points.filter((p) => p.value > 0);
            const value = sum(m.points.map((p) => p.value));
            const peak = made.reduce<(typeof made)[number] | null>((best, p) => (!best || p.value > best.value ? p : best), null);
            return h(
              "tr",
              { "data-medium": m.medium, "data-total": value },
              h("th", { scope: "row" }, m.medium),
              h("td", { class: "num" }, format(value)),
              h("td", { class: "num" }, total ? share(value / total) : "–"),
              h("td", { class: "num" }, made.length ? `${made[0]!.year}–${made[made.length - 1]!.year}` : "–"),
              h("td", { class: "num" }, peak ? `${peak.year} (${format(peak.value)})` : "–"),
            );
          }),
        ),
      ),
    ),
  ];
}

/**
 * The career path: works by medium and creation year, counted, or (read when first asked) weighted
 * by their current estimates. Each read is made once for the page; the switch appears with the
 * first answer, so a locked plan sees only the reason.
 */
export function careerPath(el: HTMLElement, id: number): void {
  const reads: Partial<Record<Measure, Promise<CareerPath>>> = {};
  const read = (m: Measure) => (reads[m] ??= call(m === "count" ? "/v1/artists/{id}/career-path-count" : "/v1/artists/{id}/career-path-lae", { id }));
  const body = h("div", { id: "artist-career-body" });
  const buttons = (
    [
      ["count", "Works"],
      ["value", "Estimated value (USD)"],
    ] as const
  ).map(([m, label]) => h("button", { type: "button", class: "seg", id: `career-${m}`, "aria-pressed": String(m === "count"), onclick: () => show(m) }, label));
  const show = (m: Measure) => {
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.id === `career-${m}`));
    return slot(body, "The career path", async () => careerView(await read(m)));
  };
  slot(el, "The career path", async () => {
    body.replaceChildren(...[careerView(await read("count"))].flat());
    return [h("div", { class: "switch", role: "group", "aria-label": "career path by" }, buttons), body];
  });
}
