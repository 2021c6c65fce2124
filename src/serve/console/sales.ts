// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * Sales and lots:
 *   #/sales?…      the sale list, its filters (the sale list grammar) as form controls
 *   #/sale/ID?…    a sale: its aggregates, and its lots as a catalogue grid (offset paged)
 *   #/lot/ID       one lot: estimate, outcome or forecast, notes
 * Lots of an upcoming sale carry the service's forecast (chance of selling, the median hammer if
 * sold and its 80 % band) where the key's schema has it; the public schema has neither prices nor
 * forecasts. A lot's estimate, hammer and forecast are shown in one currency, the user's preferred
 * one (the header's choice, USD until one is picked), with the sale's own currency beside them.
 * And the artwork page's lot sections: its lots, and the copies of its edition with theirs.
 */
import { type Artwork, call, type EditionLot, type Lot, type Price, type Sale } from "./api";
import { bandChart, type ChartElement } from "./charts";
import { cached, choice, day, field, followButton, formHash, h, int, main, pager, pictureBox, preferredCurrency, share, slot, usd } from "./ui";

const STATUS_LABEL: Record<string, string> = { closed: "concluded", upcoming: "upcoming", live: "live", session_off: "between sessions" };
const LOT_STATUS_LABEL: Record<string, string> = { sold: "Sold", passed: "Bought in", withdrawn: "Withdrawn", upcoming: "Upcoming", unknown: "Outcome unknown" };

const STATUSES = [
  ["", "any"],
  ["upcoming,live,session_off", "upcoming or under way"],
  ["upcoming", "upcoming"],
  ["live", "live"],
  ["session_off", "between sessions"],
  ["closed", "concluded"],
] as const;
const SORTS = [
  ["DATE_DESC", "date, latest first"],
  ["DATE_ASC", "date, earliest first"],
  ["END_DATETIME_DESC", "end, latest first"],
  ["END_DATETIME_ASC", "end, earliest first"],
] as const;

/** The reference lists for the filters, read once a session (1 DU each). */
const houses = cached(() => call("/v1/auction-houses"));
const locations = cached(() => call("/v1/auction-locations"));

/** Fills a select with the options a reference list gives, keeping `current` selected. */
async function fillSelect(select: HTMLSelectElement, load: () => Promise<(readonly [string, string])[]>, current: string): Promise<void> {
  try {
    const options = await load();
    select.append(...options.map(([value, label]) => h("option", { value, selected: value === current }, label)));
  } catch {
    // the filter stays at "any"; the list itself says what failed
  }
}

const LIST_FILTERS = ["name__ilike", "status__in", "is_online", "auction_house_id", "location", "start_datetime__gte", "start_datetime__lte", "sort"];

export function salesPage(params: URLSearchParams): void {
  const limit = Number(params.get("limit") ?? 20);
  const offset = Number(params.get("offset") ?? 0);
  const houseSelect = choice("auction_house_id", [["", "any"]], "");
  const locationSelect = choice("location", [["", "any"]], "");
  const form = h(
    "form",
    {
      id: "sales-filters",
      class: "filters",
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = formHash("sales", form);
      },
    },
    field("Name contains", h("input", { name: "name__ilike", type: "search", value: params.get("name__ilike") ?? "" })),
    field("Status", choice("status__in", STATUSES, params.get("status__in") ?? "")),
    field(
      "Where",
      choice(
        "is_online",
        [
          ["", "online or in a room"],
          ["true", "online"],
          ["false", "in a room"],
        ],
        params.get("is_online") ?? "",
      ),
    ),
    field("Auction house", houseSelect),
    field("Location", locationSelect),
    field("Starts from", h("input", { name: "start_datetime__gte", type: "date", value: params.get("start_datetime__gte") ?? "" })),
    field("Starts until", h("input", { name: "start_datetime__lte", type: "date", value: params.get("start_datetime__lte") ?? "" })),
    field("Sort by", choice("sort", SORTS, params.get("sort") ?? "DATE_DESC")),
    field(
      "Rows",
      choice(
        "limit",
        ["10", "20", "50"].map((n) => [n, n] as const),
        String(limit),
      ),
    ),
    h("button", { type: "submit" }, "Apply"),
  );
  fillSelect(houseSelect, async () => (await houses()).map((x) => [String(x.id), x.name] as const), params.get("auction_house_id") ?? "");
  fillSelect(locationSelect, async () => (await locations()).map((x) => [x, x] as const), params.get("location") ?? "");
  const results = h("div", { id: "sales-results" });
  main().replaceChildren(h("h1", {}, "Sales"), form, results);
  const query: Record<string, string | number> = { limit, offset };
  for (const k of LIST_FILTERS) {
    const v = params.get(k);
    if (v) query[k] = v;
  }
  slot(results, "The sale list", async () => {
    const list = await call("/v1/sales", query);
    const full = list.sales.some((s) => s.hammer_low_estimate !== undefined);
    const href = (o: number) => {
      const p = new URLSearchParams(params);
      p.set("offset", String(o));
      return `#/sales?${p}`;
    };
    return [
      !full && h("p", { class: "locked", role: "note" }, "The public schema: the totals and estimates come with a pro or enterprise key."),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "grid", id: "sales-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Date", "Sale", "House", "Location", "Status", "Lots", "Result or estimate"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            {},
            list.sales.map((s) =>
              h(
                "tr",
                { "data-sale-id": s.id, "data-status": s.status },
                h("td", { class: "num" }, h("time", { datetime: s.start_datetime }, day(s.start_datetime))),
                h("td", {}, h("a", { href: `#/sale/${s.id}` }, s.name)),
                h("td", {}, s.auction_house.name),
                h("td", {}, s.location),
                h("td", {}, h("span", { class: `status ${s.status}` }, STATUS_LABEL[s.status] ?? s.status)),
                h("td", { class: "num" }, int(s.lots_count)),
                h("td", { class: "num" }, saleResult(s)),
              ),
            ),
          ),
        ),
      ),
      pager(offset, limit, list.sales.length, offset + list.sales.length < list.total, list.total, href),
    ];
  });
}

/** Lots sold: the three outcome counts (null before the sale closes). */
function soldOf(s: Sale): number | null {
  const parts = [s.lots_count_sold_above_estimations, s.lots_count_sold_within_estimations, s.lots_count_sold_below_estimations];
  return parts.some((x) => x === null) ? null : parts.reduce<number>((a, b) => a + (b ?? 0), 0);
}

/** A concluded sale's hammer total and sold rate; an upcoming sale's estimate envelope. */
function saleResult(s: Sale): string {
  const sold = soldOf(s);
  if (s.status === "closed") {
    const rate = sold !== null && s.lots_count ? ` · ${share(sold / s.lots_count)} sold` : "";
    return `${s.hammer_total !== undefined ? usd(s.hammer_total, s.currency) : "–"}${rate}`;
  }
  if (s.hammer_low_estimate === undefined || !s.lots_count) return "–";
  return `est. ${usd(s.hammer_low_estimate, s.currency)}–${usd(s.hammer_high_estimate, s.currency)}`;
}

const LOTS_PER_PAGE = 48;

export function salePage(id: number, params: URLSearchParams): void {
  const offset = Number(params.get("offset") ?? 0);
  const head = h("div", { id: "sale-head" }, "Loading…");
  const lots = h("div", { id: "sale-lots" });
  main().replaceChildren(head, h("section", {}, h("h2", {}, "Catalogue"), lots));
  const sale = call("/v1/sales/{id}", { id });
  slot(head, "The sale", async () => saleHead(await sale));
  slot(lots, "The lots", async () => {
    const [list, s] = await Promise.all([
      call("/v1/lots", { sale_id: id, sort: "NUMBER_ASC", limit: LOTS_PER_PAGE, offset, preferred_currency: preferredParam() }),
      sale.catch(() => null),
    ]);
    if (!list.lots.length) return h("p", {}, offset ? "No more lots." : "No lots catalogued yet.");
    const full = list.lots.some((l) => l.price !== undefined);
    const forecasts = list.lots.filter((l) => l.sale_probability != null && l.expected_hammer_usd != null);
    // what the lots of this page fetch, each lot's median hammer weighed by its chance of selling (USD; shown converted)
    const weighted = forecasts.reduce((sum, l) => sum + l.sale_probability! * l.expected_hammer_usd!, 0);
    const cur = preferredCurrency.get();
    const rates = forecasts.map((l) => usdRate(l.price, cur));
    const shown = rates.every((r) => r !== null)
      ? usd(
          forecasts.reduce((sum, l, i) => sum + l.sale_probability! * l.expected_hammer_usd! * rates[i]!, 0),
          cur,
        )
      : usd(weighted);
    return [
      !full && h("p", { class: "locked", role: "note" }, "The public schema: the house's estimates, the hammers and the forecasts come with a pro or enterprise key."),
      forecasts.length > 0 &&
        h(
          "p",
          { class: "sub", id: "sale-expected" },
          `Forecast for the ${forecasts.length === list.lots.length ? "" : `${forecasts.length} `}lots shown: hammer total weighed by chance `,
          h("b", { "data-value": Math.round(weighted) }, shown),
          " (each lot's median hammer if sold times its chance of selling).",
        ),
      h(
        "div",
        { class: "cards catalogue" },
        list.lots.map((l) => lotCard(l)),
      ),
      pager(offset, LOTS_PER_PAGE, list.lots.length, list.has_more, s?.lots_count ?? null, (o) => `#/sale/${id}?offset=${o}`),
    ];
  });
}

function saleHead(s: Sale): HTMLElement[] {
  const sold = soldOf(s);
  const notSold = s.lots_count_not_sold;
  const facts: [string, HTMLElement | string, Record<string, unknown>?][] = [
    ["Auction house", s.auction_house.name],
    ["Dates", `${day(s.start_datetime)}${day(s.end_datetime) !== day(s.start_datetime) ? ` – ${day(s.end_datetime)}` : ""} (UTC)`],
    ["Location", `${s.location}${s.is_online && s.location !== "Online" ? " (online)" : ""}`],
    ["Status", STATUS_LABEL[s.status] ?? s.status],
    ["Currency", s.currency],
    ["Lots offered", int(s.lots_count), { id: "sale-lots-count" }],
  ];
  if (s.hammer_low_estimate !== undefined && s.lots_count)
    facts.push(["Estimate (sum of the lots')", `${usd(s.hammer_low_estimate, s.currency)} – ${usd(s.hammer_high_estimate, s.currency)}`]);
  if (s.status === "closed" && sold !== null && notSold !== null) {
    facts.push(["Sold", `${int(sold)} of ${int(s.lots_count)} (${share(s.lots_count ? sold / s.lots_count : null)})`, { id: "sale-sold", "data-sold": sold }]);
    facts.push(["Bought in", int(notSold)]);
    const other = s.lots_count - sold - notSold;
    if (other > 0) facts.push(["Withdrawn or unknown", int(other)]);
    if (s.hammer_total !== undefined) {
      facts.push(["Hammer total", usd(s.hammer_total, s.currency), { id: "sale-hammer-total", "data-value": s.hammer_total ?? "" }]);
      facts.push(["Buyer's premiums", usd(s.premium_sold_total, s.currency)]);
      facts.push(["Total with premium", usd(s.cumulative_total, s.currency)]);
      if (s.currency !== "USD") facts.push(["Total with premium (USD)", usd(s.cumulative_total_usd_zeroied)]);
    }
  }
  return [
    h("h1", {}, s.name),
    h("p", { class: "sub" }, h("a", { href: "#/sales" }, "Sales"), ` · ${s.auction_house.name}, ${s.location}, ${day(s.start_datetime)}`),
    h("div", { class: "actions" }, s.is_followed !== undefined && followButton("sales", s.id, s.is_followed)),
    h(
      "div",
      { class: "cols" },
      h(
        "dl",
        { class: "facts", id: "sale-facts" },
        facts.flatMap(([k, v, attrs]) => [h("dt", {}, k), h("dd", attrs ?? {}, v)]),
      ),
      s.status === "closed" && sold !== null && notSold !== null && outcomeBar(s, sold, notSold),
    ),
  ];
}

/** The concluded sale's lots by outcome: above, within and below the estimate, bought in. */
function outcomeBar(s: Sale, sold: number, notSold: number): HTMLElement {
  const parts = [
    ["above the estimate", s.lots_count_sold_above_estimations ?? 0, "above"],
    ["within the estimate", s.lots_count_sold_within_estimations ?? 0, "within"],
    ["below the estimate", s.lots_count_sold_below_estimations ?? 0, "below"],
    ["bought in", notSold, "passed"],
  ] as const;
  const all = Math.max(1, sold + notSold);
  return h(
    "figure",
    { class: "outcomes", id: "sale-outcomes" },
    h(
      "div",
      { class: "stack", role: "img", "aria-label": parts.map(([label, n]) => `${n} ${label}`).join(", ") },
      parts.map(([label, n, cls]) => n > 0 && h("span", { class: cls, style: { width: `${(n / all) * 100}%` }, title: `${n} ${label}` })),
    ),
    h(
      "figcaption",
      {},
      parts.map(([label, n, cls]) => h("span", { class: "key" }, h("i", { class: cls }), `${n} ${label}`)),
    ),
  );
}

/** `preferred_currency` for a lot request: the user's choice, none for USD (the price's *_usd amounts are in it). */
function preferredParam(): string | undefined {
  const cur = preferredCurrency.get();
  return cur === "USD" ? undefined : cur;
}

/** A price's amounts in the preferred currency: its *_usd or its *_preferred ones (null when the answer has none in it). */
function converted(p: Price, cur: string): { hammer: number | null; min: number | null; max: number | null; premium: number | null } | null {
  if (cur === "USD") return { hammer: p.hammer_usd, min: p.hammer_estimate_min_usd, max: p.hammer_estimate_max_usd, premium: p.premium_usd };
  if (p.preferred_currency !== cur) return null;
  return { hammer: p.hammer_preferred ?? null, min: p.hammer_estimate_min_preferred ?? null, max: p.hammer_estimate_max_preferred ?? null, premium: p.premium_preferred ?? null };
}

/** The sale day's rate from USD to the preferred currency, read off the lot's own converted amounts (null without any). */
function usdRate(p: Price | undefined, cur: string): number | null {
  if (cur === "USD") return 1;
  if (!p || p.preferred_currency !== cur) return null;
  for (const [inUsd, inCur] of [
    [p.hammer_estimate_min_usd, p.hammer_estimate_min_preferred],
    [p.hammer_estimate_max_usd, p.hammer_estimate_max_preferred],
    [p.hammer_usd, p.hammer_preferred],
  ] as const)
    if (inUsd && inCur != null) return inCur / inUsd;
  return null;
}

/** An amount in the preferred currency, the sale's own beside it when they differ. */
function both(inCur: number | null, native: number | null, p: Price): string {
  const cur = preferredCurrency.get();
  const c = converted(p, cur);
  if (p.currency === cur || c === null) return usd(native, p.currency);
  return `${usd(inCur, cur)} (${usd(native, p.currency)})`;
}

/** Low–high estimate in the preferred currency, then in the sale's. */
function estimate(l: Lot): string {
  const p = l.price;
  if (!p || (p.hammer_estimate_min === null && p.hammer_estimate_max === null)) return "–";
  const native = `${usd(p.hammer_estimate_min, p.currency)}–${usd(p.hammer_estimate_max, p.currency)}`;
  const cur = preferredCurrency.get();
  const c = converted(p, cur);
  if (p.currency === cur || c === null) return native;
  return `${usd(c.min, cur)}–${usd(c.max, cur)} (${native})`;
}

/** The forecast's median hammer and its 80 % band, in the preferred currency (USD when the lot gives no rate to it). */
function forecast(l: Lot): string {
  const cur = preferredCurrency.get();
  const rate = usdRate(l.price, cur);
  const [code, r] = rate === null ? ["USD", 1] : [cur, rate];
  const at = (v: number | null | undefined) => (v === null || v === undefined ? null : v * r);
  return `${usd(at(l.expected_hammer_usd), code)} (80 %: ${usd(at(l.expected_hammer_usd_low), code)}–${usd(at(l.expected_hammer_usd_high), code)})`;
}

/** Sold against the estimate: above, within or below. */
function against(l: Lot): string {
  const p = l.price;
  if (!p || p.hammer === null) return "";
  if (p.hammer_estimate_max !== null && p.hammer > p.hammer_estimate_max) return "above";
  if (p.hammer_estimate_min !== null && p.hammer < p.hammer_estimate_min) return "below";
  return "within";
}

/** What happened to the lot, or what is expected to: the hammer, the status, or the forecast. */
function outcome(l: Lot): (HTMLElement | false)[] {
  const p = l.price;
  if (l.status === "sold" && p?.hammer != null) {
    const where = against(l);
    return [
      h(
        "span",
        { class: `hammer ${where}`, "data-hammer": p.hammer },
        `Hammer ${both(converted(p, preferredCurrency.get())?.hammer ?? null, p.hammer, p)}`,
        where && h("span", { class: "sub" }, ` (${where})`),
      ),
    ];
  }
  if (l.status === "upcoming" && l.sale_probability != null && l.expected_hammer_usd != null) {
    return [
      h("span", { class: "forecast", "data-probability": l.sale_probability }, `${share(l.sale_probability)} chance of selling`),
      h(
        "span",
        { class: "sub", "data-expected": l.expected_hammer_usd, "data-expected-low": l.expected_hammer_usd_low ?? "", "data-expected-high": l.expected_hammer_usd_high ?? "" },
        `median if sold ${forecast(l)}`,
      ),
    ];
  }
  return [h("span", { class: `lot-status ${l.status}` }, LOT_STATUS_LABEL[l.status] ?? l.status)];
}

function lotCard(l: Lot): HTMLElement {
  return h(
    "article",
    {
      class: "card lot",
      "data-lot-id": l.id,
      "data-status": l.status,
      "data-estimate-min": l.price?.hammer_estimate_min ?? "",
      "data-estimate-max": l.price?.hammer_estimate_max ?? "",
    },
    // the lots carry no measurements: a square box, the picture contained in it
    pictureBox(l.image?.urls ?? null, "1 / 1", "(max-width: 600px) 45vw, 200px", `${l.artwork.name}, ${l.artist.name}`),
    h("span", { class: "sub" }, `Lot ${l.lot_num}`, l.is_top && h("span", { class: "top" }, " · top lot")),
    h("a", { class: "title", href: `#/lot/${l.id}` }, l.artwork.name, l.artwork.creation_year ? `, ${l.artwork.creation_year}` : ""),
    h("a", { class: "sub", href: `#/artist/${l.artist.id}` }, l.artist.name),
    l.price && h("span", { class: "estimate" }, `est. ${estimate(l)}`),
    outcome(l),
  );
}

export function lotPage(id: number): void {
  const head = h("div", { id: "lot-head", class: "artwork" }, "Loading…");
  main().replaceChildren(head);
  slot(head, "The lot", async () => {
    const l = await call("/v1/lots/{id}", { id, preferred_currency: preferredParam() });
    const p = l.price;
    return [
      h("div", { class: "hero" }, pictureBox(l.image?.urls ?? null, "1 / 1", "(max-width: 700px) 100vw, 560px", `${l.artwork.name}, ${l.artist.name}`, true)),
      h(
        "div",
        {},
        h("p", { class: "sub" }, h("a", { href: `#/sale/${l.sale.id}` }, l.sale.name), ` · ${l.auction_house_name}, ${l.sale.location}, ${day(l.sale.start_datetime)}`),
        h("h1", {}, `Lot ${l.lot_num}: ${l.artwork.name}${l.artwork.creation_year ? `, ${l.artwork.creation_year}` : ""}`),
        h("p", {}, h("a", { href: `#/artist/${l.artist.id}` }, l.artist.name), " · ", h("a", { href: `#/artwork/${l.artwork.id}` }, "the artwork's page")),
        h("div", { class: "actions" }, l.is_followed !== undefined && followButton("lots", l.id, l.is_followed)),
        h(
          "dl",
          { class: "facts", id: "lot-facts" },
          h("dt", {}, "Status"),
          h("dd", {}, LOT_STATUS_LABEL[l.status] ?? l.status),
          p && [h("dt", {}, "Estimate"), h("dd", {}, estimate(l))],
          p?.hammer != null && [
            h("dt", {}, "Hammer"),
            h("dd", { "data-value": p.hammer }, both(converted(p, preferredCurrency.get())?.hammer ?? null, p.hammer, p), against(l) && ` (${against(l)} the estimate)`),
          ],
          p?.premium != null && [h("dt", {}, "With premium"), h("dd", {}, both(converted(p, preferredCurrency.get())?.premium ?? null, p.premium, p))],
          l.sale_probability != null && [h("dt", {}, "Chance of selling"), h("dd", {}, share(l.sale_probability))],
          l.expected_hammer_usd != null && [h("dt", {}, "Median hammer if sold"), h("dd", { id: "lot-forecast" }, forecast(l))],
        ),
        !p && h("p", { class: "locked", role: "note" }, "The estimate, hammer and forecast come with a pro or enterprise key."),
        l.notes && h("p", {}, l.notes),
      ),
    ];
  });
}

/** The lots of an artwork (newest first), each linked to its sale: the artwork page's section. */
export function artworkLots(el: HTMLElement, artworkId: number): void {
  slot(el, "The artwork's lots", async () => {
    const list = await call("/v1/lots", { artwork_id: artworkId, sort: "SALE_DATE_DESC", limit: 20 });
    if (!list.lots.length) return h("p", {}, "Never offered at auction.");
    return h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["Date", "Sale", "Lot", "Status", "Estimate", "Hammer"].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        h(
          "tbody",
          {},
          list.lots.map((l) =>
            h(
              "tr",
              { "data-lot-id": l.id },
              h("td", { class: "num" }, day(l.sale_datetime)),
              h("td", {}, h("a", { href: `#/sale/${l.sale.id}` }, l.sale.name), h("span", { class: "sub" }, ` ${l.auction_house_name}`)),
              h("td", {}, h("a", { href: `#/lot/${l.id}` }, l.lot_num)),
              h("td", {}, LOT_STATUS_LABEL[l.status] ?? l.status),
              h("td", { class: "num" }, estimate(l)),
              h("td", { class: "num" }, l.price?.hammer != null ? usd(l.price.hammer, l.price.currency) : "–"),
            ),
          ),
        ),
      ),
    );
  });
}

/** A lot of an edition's copy in a word: its hammer where sold (full schema), else its status. */
function editionLotText(l: EditionLot): string {
  return l.status === "sold" && l.price?.hammer != null ? usd(l.price.hammer, l.price.currency) : (LOT_STATUS_LABEL[l.status] ?? l.status);
}

/**
 * The copies of an artwork's edition (GET /v1/artworks/{id}/editions: 2 DU + 1.5 a copy), by
 * edition number, this one marked: each copy's estimate, its lots (oldest first, each linked to
 * its page) and, with the full schema, every copy's hammers in USD on one chart.
 */
export function artworkEditions(el: HTMLElement, artwork: Artwork): void {
  slot(el, "The edition's copies", async () => {
    const r = await call("/v1/artworks/{id}/editions", { id: artwork.id });
    const lots = r.editions.flatMap((e) => e.lots);
    const sold = lots.filter((l) => l.status === "sold");
    const priced = lots.some((l) => l.price !== undefined) || r.editions.some((e) => e.artwork.current_estimated_price !== undefined);
    const hammers = (mine: boolean) =>
      r.editions
        .filter((e) => (e.artwork.id === artwork.id) === mine)
        .flatMap((e) => e.lots.filter((l) => l.price?.hammer_usd != null).map((l) => ({ time: day(l.sale_datetime), value: l.price!.hammer_usd! })))
        .sort((a, b) => a.time.localeCompare(b.time));
    const chart: ChartElement = h("div", { class: "chart", id: "editions-chart", role: "img", "aria-label": "the hammers of every copy of the edition, USD" });
    const mine = hammers(true);
    const others = hammers(false);
    return [
      h(
        "p",
        { class: "sub", id: "editions-summary" },
        `An edition of ${r.edition_size ?? "unknown size"}: ${int(r.editions.length)} ${r.editions.length === 1 ? "copy" : "copies"} tracked, `,
        `${int(lots.length)} ${lots.length === 1 ? "lot" : "lots"}, ${int(sold.length)} sold.`,
      ),
      !priced && h("p", { class: "locked", role: "note" }, "The copies' estimates and hammers come with a pro or enterprise key."),
      mine.length + others.length > 0 &&
        (() => {
          // drawn once the section is in the page (uPlot takes its width)
          requestAnimationFrame(() =>
            bandChart(
              chart,
              [
                { label: "This copy: hammer (USD)", points: mine, dots: true, colour: "#1d4ed8" },
                { label: "Other copies: hammer (USD)", points: others, dots: true, colour: "#b45309" },
              ],
              [],
              200,
            ),
          );
          return chart;
        })(),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "grid", id: "editions-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Copy", "Estimate", "Offered", "Sold", "Lots, oldest first"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            {},
            r.editions.map(({ artwork: a, lots: its }) => {
              const e = a.description.edition;
              const number = `No. ${e?.edition_number ?? "?"}${r.edition_size ? ` / ${r.edition_size}` : ""}`;
              const current = a.id === artwork.id;
              return h(
                "tr",
                { "data-artwork-id": a.id, "data-lots": its.length, class: current ? "current" : "", "aria-current": current ? "true" : undefined },
                h("th", { scope: "row" }, current ? [number, h("span", { class: "sub" }, " (this copy)")] : h("a", { href: `#/artwork/${a.id}` }, number)),
                h("td", { class: "num", "data-value": a.current_estimated_price ?? "" }, usd(a.current_estimated_price)),
                h("td", { class: "num" }, int(its.length)),
                h("td", { class: "num" }, int(its.filter((l) => l.status === "sold").length)),
                h(
                  "td",
                  {},
                  its.length
                    ? h(
                        "ul",
                        { class: "inline" },
                        its.map((l) =>
                          h(
                            "li",
                            { "data-lot-id": l.id, "data-hammer": l.price?.hammer ?? "" },
                            h("a", { href: `#/lot/${l.id}`, title: [l.sale_name, l.auction_house_name].filter(Boolean).join(", ") }, day(l.sale_datetime)),
                            ` ${editionLotText(l)}`,
                          ),
                        ),
                      )
                    : h("span", { class: "sub" }, "never offered"),
                ),
              );
            }),
          ),
        ),
      ),
    ];
  });
}
