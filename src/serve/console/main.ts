// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * The console's pages, routed by the URL's hash (the key never goes into a URL):
 *   #/            sign-in (and the public views that need no key)
 *   #/artists?…   the screener; its form's state is in the hash, so a view can be bookmarked
 *   #/artist/ID   an artist: index chart with its band, events, analytics, related artists, works
 *   #/artwork/ID  an artwork: its picture, estimate and band, chart, similar works
 *   #/search      search by image
 */
import { ApiError, type Artist, type Artwork, call, calls, key, meter, onMeter, signIn, signOut } from "./api";
import { bandChart, fitCharts, seconds, sparkline } from "./charts";
import "./console.css";

type Child = Node | string | number | null | undefined | false;

/** Builds an element; text is always set as text, never parsed as HTML. */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, unknown> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v as EventListener);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const usd = (v: number | null | undefined, currency = "USD") =>
  v === null || v === undefined ? "–" : new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(v);
const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "–" : `${v > 0 ? "+" : ""}${v.toFixed(digits)} %`);
const int = (v: number | null | undefined) => (v === null || v === undefined ? "–" : new Intl.NumberFormat("en-US").format(v));
const life = (a: Artist) => (a.birth ? `${a.birth}–${a.death ?? ""}` : "");

const main = () => document.getElementById("main")!;

// ---- header bar and call log ---------------------------------------------------------------

function renderMeter(): void {
  const bar = document.getElementById("meter")!;
  const used = meter.duLimit !== null && meter.remaining !== null ? meter.duLimit - meter.remaining : null;
  bar.dataset.remaining = meter.remaining === null ? "" : String(meter.remaining);
  bar.dataset.plan = meter.plan ?? "";
  const rate = meter.rate ? [...meter.rate.matchAll(/"(\w+)";r=(\d+)/g)].map((m) => `${m[2]} left this ${m[1]}`).join(", ") : "";
  const policy = meter.policy ? [...meter.policy.matchAll(/"(\w+)";q=(\d+)/g)].map((m) => `${int(Number(m[2]))}/${m[1]}`).join(", ") : "";
  bar.replaceChildren(
    key.get()
      ? h(
          "span",
          {},
          h("span", { class: "chip", id: "plan" }, meter.plan ?? "…"),
          h("span", { class: "stat" }, "DU used ", h("b", { id: "du-used" }, int(used))),
          h("span", { class: "stat" }, "left ", h("b", { id: "du-left" }, int(meter.remaining))),
          policy && h("span", { class: "stat", id: "rate", title: rate }, `limits ${policy}${rate ? ` (${rate})` : ""}`),
          h("button", { type: "button", id: "sign-out", onclick: () => (signOut(), (location.hash = "#/")) }, "Sign out"),
        )
      : h("span", { class: "stat" }, "Not signed in: public views only"),
  );
  const log = document.getElementById("calls")!;
  log.replaceChildren(
    ...calls
      .slice(0, 12)
      .map((c) =>
        h(
          "li",
          { class: c.status >= 400 ? "err" : "" },
          h("code", {}, `${c.method} ${c.path}`),
          " ",
          h("span", { class: "status" }, c.status),
          " ",
          h("b", { class: "du" }, c.du === null ? "no DU" : `${c.du} DU`),
        ),
      ),
  );
}

/** A section that failed: a plan without analytics says why (the API's 403), others show the error. */
function failure(error: unknown, what: string): HTMLElement {
  if (error instanceof ApiError && error.status === 403) {
    return h("div", { class: "locked", role: "note" }, h("b", {}, `${what} is locked for this key. `), error.detail, ". A pro or enterprise key sees it.");
  }
  if (error instanceof ApiError && error.status === 401) return h("div", { class: "locked", role: "note" }, h("b", {}, `${what} needs a key. `), h("a", { href: "#/" }, "Sign in"));
  return h("div", { class: "error", role: "alert" }, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Fills a slot when its call answers, without holding up the rest of the page. */
async function slot(el: HTMLElement, what: string, load: () => Promise<Child | Child[]>): Promise<void> {
  el.setAttribute("aria-busy", "true");
  try {
    const out = await load();
    el.replaceChildren(
      ...[out]
        .flat()
        .filter((c): c is Node | string => c !== null && c !== undefined && c !== false)
        .map((c) => (c instanceof Node ? c : String(c))),
    );
  } catch (error) {
    el.replaceChildren(failure(error, what));
  } finally {
    el.removeAttribute("aria-busy");
  }
}

// ---- images ----------------------------------------------------------------------------------

/** The rendition widths the API signs (w240…w1920), smallest first. */
function srcset(urls: Record<string, string>): string {
  return Object.entries(urls)
    .map(([name, url]) => [Number(name.replace(/\D/g, "")), url] as const)
    .filter(([w]) => w > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([w, url]) => `${url} ${w}w`)
    .join(", ");
}

/** An artwork's picture: the browser picks the rendition by the width it is shown at; the box keeps the work's proportions while it loads. */
function picture(a: Artwork, sizes: string, eager = false): HTMLElement {
  const m = a.description.measurements;
  const ratio = m?.width_cm && m?.height_cm ? `${m.width_cm} / ${m.height_cm}` : "1 / 1";
  const image = a.description.image;
  if (!image) return h("div", { class: "pic empty", style: { aspectRatio: ratio } }, "no image");
  const urls = image.urls;
  const fallback = urls.w480 ?? Object.values(urls)[0];
  return h(
    "div",
    { class: "pic", style: { aspectRatio: ratio } },
    h("img", { src: fallback, srcset: srcset(urls), sizes, alt: `${a.description.name}, ${a.description.artist.name}`, loading: eager ? "eager" : "lazy", decoding: "async" }),
  );
}

function artworkCard(a: Artwork, score?: number): HTMLElement {
  return h(
    "a",
    { class: "card", href: `#/artwork/${a.id}`, "data-artwork-id": a.id },
    picture(a, "(max-width: 600px) 45vw, 200px"),
    h("span", { class: "title" }, a.description.name, a.description.creation_year ? `, ${a.description.creation_year}` : ""),
    h("span", { class: "sub" }, a.description.artist.name),
    score !== undefined && h("span", { class: "score", "data-score": score }, `score ${score.toFixed(3)}`),
    a.current_estimated_price != null && h("span", { class: "sub" }, `est. ${usd(a.current_estimated_price, a.current_estimated_price_currency ?? "USD")}`),
  );
}

// ---- sign-in -------------------------------------------------------------------------------

function signInPage(): void {
  const input = h("input", { id: "key", type: "password", autocomplete: "off", spellcheck: "false", placeholder: "am_…", required: true, "aria-describedby": "key-help" });
  const message = h("p", { id: "sign-in-message", role: "status" });
  const form = h(
    "form",
    {
      id: "sign-in",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        message.textContent = "Checking the key…";
        try {
          const usage = await signIn(input.value.trim());
          message.textContent = `Signed in on the ${usage.plan} plan.`;
          location.hash = "#/artists";
        } catch (error) {
          message.textContent = error instanceof ApiError ? `The key was refused (${error.status}): ${error.detail}` : String(error);
        }
      },
    },
    h("label", { for: "key" }, "API key"),
    h("div", { class: "row" }, input, h("button", { type: "submit" }, "Sign in")),
    message,
  );
  main().replaceChildren(
    h(
      "section",
      { class: "narrow" },
      h("h1", {}, "artmarket console"),
      h("p", {}, "The auction market as charts and pictures, read from this service's API with your key. Every call shows what it cost in Data Units (DU)."),
      form,
      h(
        "div",
        { id: "key-help" },
        h("h2", {}, "Where keys come from"),
        h("p", {}, "The operator creates one on the server:"),
        h("pre", {}, "artmarket keys create --plan SLUG   # sandbox, pro or enterprise"),
        h(
          "p",
          {},
          "The first start of a new data directory prints an enterprise key once. The key stays in this tab only (session storage) and is sent as a bearer header, never in a URL.",
        ),
        h("p", {}, "A sandbox key sees the public schema; the analytics (charts, related artists, image search) are locked for it and say so."),
      ),
      h(
        "div",
        {},
        h("h2", {}, "Without a key"),
        h(
          "ul",
          {},
          h("li", {}, h("a", { href: "#/artists" }, "The artist list"), " in its public schema (not metered)"),
          h("li", {}, h("a", { href: "/docs" }, "The API reference")),
        ),
      ),
    ),
  );
  if (!key.get()) input.focus();
}

// ---- artists screener ----------------------------------------------------------------------

const SORTS = ["MARKET_CAP", "TOTAL_SALES", "MAX_PRICE", "MEDIAN_1YR", "LOTS_1YR", "ARTWORKS", "MOMENTUM_12MO", "MOMENTUM_5Y", "NAME", "BIRTH"];
const FILTERS: { name: string; label: string; type: string; step?: string }[] = [
  { name: "q", label: "Name", type: "search" },
  { name: "nationality__in", label: "Nationality", type: "text" },
  { name: "birth__gte", label: "Born from", type: "number" },
  { name: "birth__lte", label: "Born until", type: "number" },
  { name: "market_cap__gte", label: "Market cap ≥ (USD)", type: "number" },
  { name: "price_momentum_percentage_12mo__gte", label: "Momentum 12 mo ≥ (%)", type: "number", step: "any" },
];

function artistsPage(params: URLSearchParams): void {
  const limit = Number(params.get("limit") ?? 20);
  const offset = Number(params.get("offset") ?? 0);
  const form = h(
    "form",
    {
      id: "screener",
      class: "filters",
      onsubmit: (e: Event) => {
        e.preventDefault();
        const next = new URLSearchParams();
        for (const [k, v] of new FormData(form)) if (String(v) !== "") next.set(k, String(v));
        next.set("offset", "0");
        location.hash = `#/artists?${next}`;
      },
    },
    ...FILTERS.map((f) => h("label", {}, f.label, h("input", { name: f.name, type: f.type, step: f.step, value: params.get(f.name) ?? "" }))),
    h(
      "label",
      {},
      "Living",
      h(
        "select",
        { name: "is_living" },
        ["", "true", "false"].map((v) => h("option", { value: v, selected: (params.get("is_living") ?? "") === v }, v === "" ? "any" : v === "true" ? "living" : "deceased")),
      ),
    ),
    h(
      "label",
      {},
      "Sort by",
      h(
        "select",
        { name: "sort_by" },
        SORTS.map((s) => h("option", { value: s, selected: (params.get("sort_by") ?? "MARKET_CAP") === s }, s.toLowerCase().replace(/_/g, " "))),
      ),
    ),
    h(
      "label",
      {},
      "Order",
      h(
        "select",
        { name: "sort_dir" },
        ["", "desc", "asc"].map((v) => h("option", { value: v, selected: (params.get("sort_dir") ?? "") === v }, v || "default")),
      ),
    ),
    h(
      "label",
      {},
      "Rows",
      h(
        "select",
        { name: "limit" },
        [10, 20, 50].map((n) => h("option", { value: n, selected: n === limit }, n)),
      ),
    ),
    h("button", { type: "submit" }, "Apply"),
  );
  const results = h("div", { id: "artists-results" });
  main().replaceChildren(h("h1", {}, "Artists"), form, results);
  const query: Record<string, string | number | boolean> = { limit, offset, include_chart: true };
  for (const [k, v] of params) if (k !== "limit" && k !== "offset") query[k] = v;
  slot(results, "The artist list", async () => {
    const list = await call("/v1/artists", query, { anonymous: !key.get() });
    const page = (o: number) => {
      const p = new URLSearchParams(params);
      p.set("offset", String(Math.max(0, o)));
      return `#/artists?${p}`;
    };
    const full = list.artists.some((a) => a.market_cap !== undefined);
    return [
      !full && h("p", { class: "locked", role: "note" }, "The public schema: market cap, 12-month momentum and the index come with a pro or enterprise key."),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "grid", id: "artists-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Artist", "Nationality", "Life", "Market cap", "Momentum 12 mo", "Momentum 5 y", "Index (10 y)"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            {},
            list.artists.map((a) =>
              h(
                "tr",
                { "data-artist-id": a.id },
                h("td", {}, h("a", { href: `#/artist/${a.id}` }, a.name)),
                h("td", {}, a.nationality ?? ""),
                h("td", {}, life(a)),
                h("td", { class: "num" }, usd(a.market_cap)),
                h("td", { class: `num ${(a.price_momentum_percentage_12mo ?? 0) < 0 ? "down" : "up"}` }, pct(a.price_momentum_percentage_12mo)),
                h("td", { class: `num ${(a.price_momentum_percentage_5y ?? 0) < 0 ? "down" : "up"}` }, pct(a.price_momentum_percentage_5y)),
                h("td", {}, a.artist_index_chart ? sparkline(a.artist_index_chart.slice(-120)) : "–"),
              ),
            ),
          ),
        ),
      ),
      h(
        "nav",
        { class: "pager", "aria-label": "pages" },
        offset > 0 ? h("a", { href: page(offset - limit), rel: "prev" }, "← Previous") : h("span", {}),
        h("span", {}, `${offset + 1}–${offset + list.artists.length}${list.total !== null ? ` of ${int(list.total)}` : ""}`),
        list.artists.length === limit ? h("a", { href: page(offset + limit), rel: "next" }, "Next →") : h("span", {}),
      ),
    ];
  });
}

// ---- artist page ---------------------------------------------------------------------------

function artistPage(id: number, params: URLSearchParams): void {
  const resolution = params.get("resolution") ?? "monthly";
  const head = h("div", { id: "artist-head" }, "Loading…");
  const chart = h("div", { class: "chart", id: "artist-chart", role: "img", "aria-label": "artist index with its 80 % band" });
  const chartSlot = h("div", {}, chart);
  const events = h("div", { id: "artist-events" });
  const sharpe = h("div", { id: "artist-sharpe" });
  const returns = h("div", { id: "artist-returns" });
  const related = h("div", { id: "artist-related" });
  const works = h("div", { id: "artist-works" });
  const switcher = h(
    "div",
    { class: "switch", role: "group", "aria-label": "resolution" },
    ["monthly", "yearly", "daily"].map((r) => h("a", { href: `#/artist/${id}?resolution=${r}`, "aria-current": r === resolution ? "true" : undefined }, r)),
  );
  main().replaceChildren(
    head,
    h("section", {}, h("h2", {}, "Index, 80 % band and events"), switcher, chartSlot),
    h("div", { class: "cols" }, h("section", {}, h("h2", {}, "Sharpe ratio"), sharpe), h("section", {}, h("h2", {}, "Repeat sales: median annual return"), returns)),
    h("section", {}, h("h2", {}, "Events"), events),
    h("section", {}, h("h2", {}, "Related artists"), related),
    h("section", {}, h("h2", {}, "Artworks"), works),
  );
  slot(head, "The artist", async () => {
    const a = await call("/v1/artists/{id}", { id });
    return [
      h("h1", {}, a.name),
      h("p", { class: "sub" }, [a.nationality, life(a)].filter(Boolean).join(", ")),
      a.bio && h("p", {}, a.bio),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, "Market cap"),
        h("dd", {}, usd(a.market_cap)),
        h("dt", {}, "Total sales"),
        h("dd", {}, usd(a.total_sales)),
        h("dt", {}, "Momentum 12 mo"),
        h("dd", {}, pct(a.price_momentum_percentage_12mo)),
        h("dt", {}, "Momentum 5 y"),
        h("dd", {}, pct(a.price_momentum_percentage_5y)),
      ),
    ];
  });
  const eventList = call("/v1/artists/{id}/events", { id });
  (async () => {
    try {
      const [c, ev] = await Promise.all([call("/v1/artists/{id}/chart", { id, resolution }), eventList.catch(() => null)]);
      const series = c.series[0]!;
      bandChart(
        chart,
        [{ label: "Index (USD)", points: series.data }],
        (ev?.events ?? []).map((e) => ({ time: seconds(e.date), label: e.title })),
      );
      chart.dataset.resolution = c.resolution;
    } catch (error) {
      chartSlot.replaceChildren(failure(error, "The index chart"));
    }
  })();
  slot(events, "The events", async () => {
    const ev = await eventList;
    return ev.events.length
      ? h(
          "ul",
          { class: "events" },
          ev.events.map((e) => h("li", {}, h("time", { datetime: e.date }, e.date), " ", h("b", {}, e.title), ` (${e.type})`, e.description && ` ${e.description}`)),
        )
      : h("p", {}, "No events.");
  });
  slot(sharpe, "The Sharpe ratio", async () => {
    const s = await call("/v1/artists/{id}/sharpe-ratio", { id });
    return h(
      "table",
      { class: "grid small" },
      h("tr", {}, h("th", { scope: "col" }, "Horizon"), h("th", { scope: "col" }, "Sharpe")),
      s.horizons.map((x) => h("tr", {}, h("td", {}, `${x.horizon_years} y`), h("td", { class: "num" }, x.sharpe_ratio === null ? "–" : x.sharpe_ratio.toFixed(2)))),
    );
  });
  slot(returns, "The repeat-sale returns", async () => {
    const r = await call("/v1/artists/{id}/compound-annual-returns", { id });
    if (!r.items.length) return h("p", {}, "No repeat sales.");
    const max = Math.max(...r.items.map((x) => Math.abs(x.car)), 1);
    return h(
      "table",
      { class: "grid small" },
      h("tr", {}, h("th", { scope: "col" }, "Year"), h("th", { scope: "col" }, "Median CAR"), h("th", { scope: "col" }, "")),
      r.items
        .slice(-10)
        .map((x) =>
          h(
            "tr",
            {},
            h("td", {}, x.year),
            h("td", { class: "num" }, pct(x.car)),
            h("td", {}, h("span", { class: `bar ${x.car < 0 ? "down" : "up"}`, style: { width: `${(Math.abs(x.car) / max) * 100}%` } })),
          ),
        ),
    );
  });
  slot(related, "Related artists", async () => {
    const r = await call("/v1/artists/{id}/related", { id, limit: 8 });
    return h(
      "ul",
      { class: "related" },
      r.artists.map((a) => h("li", {}, h("a", { href: `#/artist/${a.id}` }, a.name), ` ${a.nationality ?? ""} · similarity ${(a.similarity ?? 0).toFixed(2)}`)),
    );
  });
  slot(works, "The artworks", async () => {
    const list = await call("/v1/artworks", { artist_id: id, limit: 8 });
    return h(
      "div",
      { class: "cards" },
      list.items.map((a) => artworkCard(a)),
    );
  });
}

// ---- artwork page --------------------------------------------------------------------------

function artworkPage(id: number): void {
  const head = h("div", { id: "artwork-head", class: "artwork" }, "Loading…");
  const chart = h("div", { class: "chart", id: "artwork-chart", role: "img", "aria-label": "hammer prices and the estimate's forward 80 % band" });
  const chartSlot = h("div", {}, chart);
  const similar = h("div", { id: "artwork-similar" });
  main().replaceChildren(head, h("section", {}, h("h2", {}, "Hammer prices and the estimate's forward band"), chartSlot), h("section", {}, h("h2", {}, "Similar works"), similar));
  slot(head, "The artwork", async () => {
    const a = await call("/v1/artworks/{id}", { id });
    const d = a.description;
    const m = d.measurements;
    return [
      h("div", { class: "hero" }, picture(a, "(max-width: 700px) 100vw, 560px", true)),
      h(
        "div",
        {},
        h("h1", {}, d.name, d.creation_year ? `, ${d.creation_year}` : ""),
        h("p", {}, h("a", { href: `#/artist/${d.artist.id}` }, d.artist.name)),
        h(
          "p",
          { class: "sub" },
          [d.materials, m?.height_cm && m?.width_cm ? `${m.height_cm} × ${m.width_cm} cm` : null, d.edition?.edition_unique_type].filter(Boolean).join(" · "),
        ),
        h(
          "dl",
          { class: "facts", id: "estimate" },
          h("dt", {}, "Estimate"),
          h("dd", { "data-value": a.current_estimated_price ?? "" }, usd(a.current_estimated_price, a.current_estimated_price_currency ?? "USD")),
          h("dt", {}, "80 % band"),
          h(
            "dd",
            {},
            `${usd(a.current_estimated_price_min, a.current_estimated_price_currency ?? "USD")} – ${usd(a.current_estimated_price_max, a.current_estimated_price_currency ?? "USD")}`,
          ),
          h("dt", {}, "Momentum 12 mo"),
          h("dd", {}, a.price_momentum_12mo == null ? "–" : pct(a.price_momentum_12mo * 100)),
          h("dt", {}, "Last lot"),
          h("dd", {}, a.last_lot_status),
        ),
        a.current_estimated_price == null && h("p", { class: "locked", role: "note" }, "The estimate comes with a pro or enterprise key."),
      ),
    ];
  });
  (async () => {
    try {
      const c = await call("/v1/artworks/{id}/chart", { id });
      bandChart(
        chart,
        c.series.map((s) => ({ label: s.label, points: s.data, dots: s.id === "hammer_prices" })),
        [],
        280,
      );
    } catch (error) {
      chartSlot.replaceChildren(failure(error, "The artwork chart"));
    }
  })();
  slot(similar, "Similar works", async () => {
    const r = await call("/v1/artworks/{id}/similar", { id, limit: 12 });
    return r.results.length
      ? h(
          "div",
          { class: "cards" },
          r.results.map((x) => artworkCard(x.artwork, x.score)),
        )
      : h("p", {}, "No similar works (the artwork has no picture).");
  });
}

// ---- search by image -----------------------------------------------------------------------

function searchPage(): void {
  const file = h("input", { id: "search-file", type: "file", name: "image", accept: "image/jpeg,image/png,image/webp,image/gif,image/tiff", required: true });
  const minScore = h("input", { id: "search-min-score", type: "number", name: "min_score", min: "0", max: "1", step: "0.01", value: "" });
  const artist = h("input", { id: "search-artist", type: "number", name: "artist_id", min: "1", value: "" });
  const preview = h("div", { class: "preview" });
  const results = h("div", { id: "search-results", "aria-live": "polite" });
  const run = async (picked: File) => {
    preview.replaceChildren(h("img", { src: URL.createObjectURL(picked), alt: "the picture searched for" }));
    const body = new FormData();
    body.set("image", picked);
    body.set("limit", "24");
    if (minScore.value) body.set("min_score", minScore.value);
    await slot(results, "Search by image", async () => {
      const r = await call("/v1/artworks/search-by-image", { artist_id: artist.value || undefined }, { method: "POST", body });
      return r.results.length
        ? h(
            "div",
            { class: "cards" },
            r.results.map((x) => artworkCard(x.artwork, x.score)),
          )
        : h("p", {}, "No artwork matches.");
    });
  };
  const drop = h(
    "form",
    {
      id: "search",
      class: "drop",
      ondragover: (e: DragEvent) => (e.preventDefault(), drop.classList.add("over")),
      ondragleave: () => drop.classList.remove("over"),
      ondrop: (e: DragEvent) => {
        e.preventDefault();
        drop.classList.remove("over");
        const f = e.dataTransfer?.files[0];
        if (f) run(f);
      },
      onsubmit: (e: Event) => {
        e.preventDefault();
        const f = file.files?.[0];
        if (f) run(f);
      },
    },
    h("label", { for: "search-file" }, "Drop a picture here or pick one (JPEG, PNG, WebP, GIF or TIFF)"),
    file,
    h("div", { class: "row" }, h("label", {}, "Min score", minScore), h("label", {}, "Only artist id", artist), h("button", { type: "submit" }, "Search")),
  );
  file.addEventListener("change", () => file.files?.[0] && run(file.files[0]));
  main().replaceChildren(h("h1", {}, "Search by image"), drop, preview, results);
}

// ---- routing -------------------------------------------------------------------------------

function route(): void {
  const [path = "/", query = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  for (const a of document.querySelectorAll<HTMLAnchorElement>("#nav a")) a.toggleAttribute("aria-current", path.startsWith(a.getAttribute("href")!.slice(1)));
  const artist = /^\/artist\/(\d+)$/.exec(path);
  const artwork = /^\/artwork\/(\d+)$/.exec(path);
  if (path === "/artists") artistsPage(params);
  else if (!key.get()) signInPage();
  else if (artist) artistPage(Number(artist[1]), params);
  else if (artwork) artworkPage(Number(artwork[1]));
  else if (path === "/search") searchPage();
  else signInPage();
  main().focus({ preventScroll: true });
  window.scrollTo(0, 0);
  document.body.dataset.page = path.split("/")[1] || "sign-in";
}

onMeter(renderMeter);
window.addEventListener("hashchange", route);
let resizing = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = window.setTimeout(() => fitCharts(document), 150);
});

(async () => {
  const k = key.get();
  if (k) {
    try {
      await signIn(k);
    } catch {
      // an expired or revoked key: back to the sign-in page
    }
  }
  renderMeter();
  route();
})();
