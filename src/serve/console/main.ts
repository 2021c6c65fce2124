// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * The console's pages, routed by the URL's hash (the key never goes into a URL):
 *   #/            sign-in (and the public views that need no key)
 *   #/artists?…   the screener; its form's state is in the hash, so a view can be bookmarked
 *   #/artist/ID   an artist: index chart with its band (the global index and the finance
 *                 benchmarks as overlays), events, analytics (Sharpe, returns, sales volume, career
 *                 path), related artists, works; follow
 *   #/artwork/ID  an artwork: its picture, estimate and band, edition, chart, the edition's other
 *                 copies, its lots (linked to their sales), similar works; follow, share, add to my
 *                 collection
 *   #/search      search by image: a picture's file or its address
 *   #/sales, #/sale/ID, #/lot/ID          sales and lots (sales.ts)
 *   #/collection, #/collectable/ID        my collection (collection.ts)
 *   #/usage       DU by day and by endpoint against the plan's windows (usage.ts)
 *   #/followed    what the caller follows
 *   #/shared/TOKEN  a shared list of artworks (public: no key needed)
 */
import { careerPath, salesVolume } from "./analytics";
import {
  ApiError,
  type Artist,
  type Artwork,
  type Benchmark,
  call,
  calls,
  type IndexPoint,
  key,
  meter,
  onMeter,
  resumeSession,
  send,
  session,
  setPassword,
  signIn,
  signInMethods,
  signInWithPassword,
  signOut,
} from "./api";
import { type BandSeries, bandChart, type ChartElement, fitCharts, type Marker, seconds, sparkline } from "./charts";
import { addToCollection, collectablePage, collectionPage } from "./collection";
import "./console.css";
import { artworkEditions, artworkLots, lotPage, salePage, salesPage } from "./sales";
import { artworkCard, CURRENCY_CHOICES, cached, day, failure, followButton, h, int, main, pct, picture, preferredCurrency, slot, usd } from "./ui";
import { adminPage } from "./admin";
import { keysPage } from "./keys";
import { notificationsPage, refreshUnread, webhooksPage } from "./notify";
import { usagePage } from "./usage";

const life = (a: Artist) => (a.birth ? `${a.birth}–${a.death ?? ""}` : "");

// ---- header bar and call log ---------------------------------------------------------------

function renderMeter(): void {
  // the admin page's link, for a session whose user is an admin
  document.getElementById("nav-admin")?.toggleAttribute("hidden", session.get()?.role !== "admin");
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
          h(
            "label",
            { class: "stat" },
            "Currency ",
            h(
              "select",
              {
                id: "currency",
                title: "Estimates, hammers and forecasts are shown in this currency, the sale's own beside it",
                onchange: (e: Event) => (preferredCurrency.set((e.target as HTMLSelectElement).value), route()),
              },
              CURRENCY_CHOICES.map((c) => h("option", { value: c, selected: c === preferredCurrency.get() }, c)),
            ),
          ),
          h("button", { type: "button", id: "sign-out", onclick: async () => (await signOut(), (location.hash = "#/")) }, "Sign out"),
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

// ---- sign-in -------------------------------------------------------------------------------

/** #set-password=<token>: the form a set-password link opens (the token stays in the fragment). */
function setPasswordPage(token: string): void {
  const password = h("input", { id: "new-password", type: "password", autocomplete: "new-password", minlength: 12, required: true });
  const message = h("p", { id: "set-password-message", role: "status" });
  const form = h(
    "form",
    {
      id: "set-password",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        try {
          await setPassword(token, password.value);
          message.textContent = "Your password is set. Sign in with it.";
          history.replaceState(null, "", "#/");
          setTimeout(route, 1500);
        } catch (error) {
          message.textContent = error instanceof ApiError ? `Refused (${error.status}): ${error.detail}` : String(error);
        }
      },
    },
    h("label", { for: "new-password" }, "New password (12 characters or more)"),
    h("div", { class: "row" }, password, h("button", { type: "submit" }, "Set password")),
    message,
  );
  main().replaceChildren(h("section", { class: "narrow" }, h("h1", {}, "Set your password"), form));
  password.focus();
}

/** Email and password: a session, and a key for this tab made with it (api.ts signInWithPassword). */
function passwordForm(): HTMLElement {
  const email = h("input", { id: "email", type: "email", autocomplete: "username", required: true });
  const password = h("input", { id: "password", type: "password", autocomplete: "current-password", required: true });
  const message = h("p", { id: "password-message", role: "status" });
  return h(
    "form",
    {
      id: "sign-in-password",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        message.textContent = "Signing in…";
        try {
          const usage = await signInWithPassword(email.value.trim(), password.value);
          message.textContent = `Signed in on the ${usage.plan} plan.`;
          location.hash = "#/artists";
        } catch (error) {
          message.textContent = error instanceof ApiError ? `Refused (${error.status}): ${error.detail}` : String(error);
        }
      },
    },
    h("label", { for: "email" }, "Email"),
    email,
    h("label", { for: "password" }, "Password"),
    h("div", { class: "row" }, password, h("button", { type: "submit" }, "Sign in")),
    message,
  );
}

/** #/signed-in: back from single sign-on; the session is picked up and the tab goes on to the screener. */
async function signedInPage(): Promise<void> {
  main().replaceChildren(h("p", { role: "status", id: "sso-status" }, "Signing in…"));
  try {
    await resumeSession();
    location.hash = "#/artists";
  } catch (error) {
    signInPage(error instanceof ApiError ? `Single sign-on did not open a session (${error.status}): ${error.detail}` : String(error));
  }
}

function signInPage(problem?: string): void {
  const ssoLink = h("p", { id: "sso" });
  signInMethods()
    .then((m) => {
      if (m.oidc && m.oidc_url) ssoLink.replaceChildren(h("a", { href: m.oidc_url, class: "button", id: "sso-link" }, "Sign in with single sign-on"));
    })
    .catch(() => {});
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
      problem ? h("p", { id: "sso-error", role: "alert", class: "error" }, problem) : null,
      h("h2", {}, "With your email"),
      passwordForm(),
      ssoLink,
      h("h2", {}, "Or with an API key"),
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

/**
 * The overlays of the artist chart, in the order they are drawn: the global art index and the
 * finance benchmarks (the index chart's `finance` values; the API's labels say they are synthetic).
 */
const OVERLAYS: readonly { id: "global" | Benchmark; label: string; colour: string; dash: number[] }[] = [
  { id: "global", label: "Global art index", colour: "#b45309", dash: [6, 4] },
  { id: "SNP500", label: "S&P 500", colour: "#047857", dash: [2, 3] },
  { id: "DOW_JONES", label: "Dow Jones", colour: "#be123c", dash: [2, 3] },
  { id: "MSCI_WORLD_REAL_ESTATE", label: "MSCI World Real Estate", colour: "#0e7490", dash: [2, 3] },
  { id: "GOLD", label: "Gold", colour: "#ca8a04", dash: [2, 3] },
  { id: "BITCOIN_USD", label: "Bitcoin", colour: "#6b7280", dash: [2, 3] },
];
const BENCHMARKS = OVERLAYS.flatMap((o) => (o.id === "global" ? [] : [o.id]));
/** The global art index and every benchmark in one read (10 DU, whatever the number of benchmarks), once per key. */
const marketIndex = cached(() => call("/v1/market/index-chart", { finance: BENCHMARKS.join(",") }));
/** The overlays that are on, and whether the value axis is logarithmic: kept while the tab lives, across artists and resolutions. */
const overlaysOn = new Set<string>();
let logScale = false;

/**
 * A market series (the global index, a benchmark) beside an artist's index: scaled so that it
 * equals the artist's index at their first common month not extrapolated (the first common one
 * else), and cut to the artist's time span. Both then start from the same level and their paths
 * compare directly; how the API rebased the series does not matter.
 */
function scaledOverlay(market: readonly { time: string; value: number }[], artist: readonly IndexPoint[]): { points: IndexPoint[]; base: string } | null {
  if (!artist.length) return null;
  const levels = new Map(market.map((p) => [p.time, p.value]));
  const anchor = artist.find((p) => !p.extrapolated && levels.get(p.time)) ?? artist.find((p) => levels.get(p.time));
  if (!anchor) return null;
  const factor = anchor.value / levels.get(anchor.time)!;
  const first = artist[0]!.time;
  const last = artist[artist.length - 1]!.time;
  return { base: anchor.time, points: market.filter((p) => p.time >= first && p.time <= last).map((p) => ({ time: p.time, value: p.value * factor })) };
}

/** "scaled to the artist's index at 1986-01", naming the overlays where their months differ. */
function scaledNote(bases: readonly { label: string; base: string }[]): string {
  const months = [...new Set(bases.map((b) => b.base.slice(0, 7)))];
  if (months.length <= 1) return months.length ? `scaled to the artist's index at ${months[0]}` : "";
  const named = (month: string) =>
    bases
      .filter((b) => b.base.startsWith(month))
      .map((b) => b.label)
      .join(", ");
  return `scaled to the artist's index at ${months.map((m) => `${m} (${named(m)})`).join(", ")}`;
}

function artistPage(id: number, params: URLSearchParams): void {
  const resolution = params.get("resolution") ?? "monthly";
  const head = h("div", { id: "artist-head" }, "Loading…");
  const chart: ChartElement = h("div", { class: "chart", id: "artist-chart", role: "img", "aria-label": "artist index with its 80 % band" });
  const chartSlot = h("div", {}, chart);
  const events = h("div", { id: "artist-events" });
  const sharpe = h("div", { id: "artist-sharpe" });
  const returns = h("div", { id: "artist-returns" });
  const related = h("div", { id: "artist-related" });
  const works = h("div", { id: "artist-works" });
  const volume = h("div", { id: "artist-volume" });
  const career = h("div", { id: "artist-career" });
  const switcher = h(
    "div",
    { class: "switch", role: "group", "aria-label": "resolution" },
    ["monthly", "yearly", "daily"].map((r) => h("a", { href: `#/artist/${id}?resolution=${r}`, "aria-current": r === resolution ? "true" : undefined }, r)),
  );
  const overlayBoxes = OVERLAYS.map((o) => h("input", { type: "checkbox", id: `overlay-${o.id}`, "data-overlay": o.id, checked: overlaysOn.has(o.id) }));
  const logBox = h("input", { type: "checkbox", id: "log-scale", checked: logScale });
  const logControl = h("label", { class: "check" }, logBox, "Log scale");
  const overlayNote = h("span", { class: "sub", id: "overlay-note", role: "status" });
  const overlayControl = h(
    "fieldset",
    { class: "overlays" },
    h("legend", {}, "Compare with"),
    OVERLAYS.map((o, i) => h("label", { class: "check" }, overlayBoxes[i], o.label)),
    overlayNote,
  );
  main().replaceChildren(
    head,
    h("section", {}, h("h2", {}, "Index, 80 % band and events"), h("div", { class: "row spread" }, switcher, logControl), overlayControl, chartSlot),
    h("div", { class: "cols" }, h("section", {}, h("h2", {}, "Sharpe ratio"), sharpe), h("section", {}, h("h2", {}, "Repeat sales: median annual return"), returns)),
    h("section", {}, h("h2", {}, "Sales volume by year"), volume),
    h("section", {}, h("h2", {}, "Career path: works by creation year"), career),
    h("section", {}, h("h2", {}, "Events"), events),
    h("section", {}, h("h2", {}, "Related artists"), related),
    h("section", {}, h("h2", {}, "Artworks"), works),
  );
  slot(head, "The artist", async () => {
    const a = await call("/v1/artists/{id}", { id });
    return [
      h("h1", {}, a.name),
      h("p", { class: "sub" }, [a.nationality, life(a)].filter(Boolean).join(", ")),
      a.is_followed !== undefined && h("div", { class: "actions" }, followButton("artists", a.id, a.is_followed)),
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
  /** The artist's series and the events, once the chart call has answered; the overlay redraws with them. */
  let base: { series: BandSeries; markers: Marker[] } | null = null;
  const draw = async () => {
    if (!base) return;
    const series = [base.series];
    const drawn: { id: string; label: string; base: string }[] = [];
    const missing: string[] = [];
    overlayNote.textContent = "";
    if (overlaysOn.size) {
      try {
        const market = await marketIndex();
        for (const o of OVERLAYS) {
          if (!overlaysOn.has(o.id)) continue;
          const source = o.id === "global" ? { label: "Global art index", data: market.art_data } : market.finance_data.find((f) => f.id === o.id);
          const scaled = source ? scaledOverlay(source.data, base.series.points) : null;
          if (!source || !scaled) {
            missing.push(o.label);
            continue;
          }
          series.push({ label: `${source.label}, scaled`, points: scaled.points, colour: o.colour, dashed: o.dash });
          drawn.push({ id: o.id, label: o.label, base: scaled.base });
        }
        overlayNote.textContent = [scaledNote(drawn), missing.length ? `no month in common with the artist's index: ${missing.join(", ")}` : ""].filter(Boolean).join("; ");
      } catch (error) {
        overlaysOn.clear();
        for (const box of overlayBoxes) box.checked = false;
        overlayNote.replaceChildren(failure(error, "The market index"));
      }
    }
    // what is drawn, for the tests: the overlays' ids and their base months, in the chart's order
    chart.dataset.overlays = drawn.map((d) => d.id).join(",");
    chart.dataset.overlayBases = drawn.map((d) => d.base).join(",");
    const global = drawn.find((d) => d.id === "global");
    if (global) chart.dataset.overlayBase = global.base;
    else delete chart.dataset.overlayBase;
    // the box keeps its height while the chart is drawn again
    chart.style.minHeight = `${chart.offsetHeight}px`;
    bandChart(chart, series, base.markers, 320, { log: logScale });
    chart.style.minHeight = "";
  };
  for (const box of overlayBoxes) {
    box.addEventListener("change", () => {
      if (box.checked) overlaysOn.add(box.dataset.overlay!);
      else overlaysOn.delete(box.dataset.overlay!);
      draw();
    });
  }
  logBox.addEventListener("change", () => {
    logScale = logBox.checked;
    draw();
  });
  (async () => {
    try {
      const [c, ev] = await Promise.all([call("/v1/artists/{id}/chart", { id, resolution }), eventList.catch(() => null)]);
      base = {
        series: { label: "Index (USD)", points: c.series[0]!.data },
        markers: (ev?.events ?? []).map((e) => ({ time: seconds(e.date), label: e.title })),
      };
      chart.dataset.resolution = c.resolution;
      await draw();
    } catch (error) {
      chartSlot.replaceChildren(failure(error, "The index chart"));
      // nothing to compare with or to scale
      overlayControl.hidden = logControl.hidden = true;
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
  salesVolume(volume, id);
  careerPath(career, id);
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
  const lots = h("div", { id: "artwork-lots" });
  const editions = h("div", { id: "artwork-editions" });
  // shown for a copy of an edition only
  const editionSection = h("section", { hidden: true }, h("h2", {}, "The edition's copies"), editions);
  main().replaceChildren(
    head,
    h("section", {}, h("h2", {}, "Hammer prices and the estimate's forward band"), chartSlot),
    editionSection,
    h("section", {}, h("h2", {}, "At auction"), lots),
    h("section", {}, h("h2", {}, "Similar works"), similar),
  );
  const artwork = call("/v1/artworks/{id}", { id });
  slot(head, "The artwork", async () => {
    const a = await artwork;
    const d = a.description;
    const m = d.measurements;
    return [
      h("div", { class: "hero" }, picture(a, "(max-width: 700px) 100vw, 560px", true)),
      h(
        "div",
        {},
        h("h1", {}, d.name, d.creation_year ? `, ${d.creation_year}` : ""),
        h("p", {}, h("a", { href: `#/artist/${d.artist.id}` }, d.artist.name)),
        h("div", { class: "actions" }, a.is_followed !== undefined && followButton("artworks", a.id, a.is_followed), shareButton(a), addToCollection(a)),
        h("p", { class: "sub" }, [d.materials, m?.height_cm && m?.width_cm ? `${m.height_cm} × ${m.width_cm} cm` : null].filter(Boolean).join(" · ")),
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
          h("dt", {}, "Edition"),
          h("dd", { id: "edition-facts" }, editionOf(a)),
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
  artwork.then(
    (a) => {
      if (a.description.edition?.edition_unique_type !== "edition") return;
      editionSection.hidden = false;
      artworkEditions(editions, a);
    },
    // the head says what failed
    () => undefined,
  );
  artworkLots(lots, id);
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

/** The artwork's edition as its detail gives it: a unique work, or which copy of how many. */
function editionOf(a: Artwork): string {
  const e = a.description.edition;
  if (!e || e.edition_unique_type === "unique") return "unique work";
  return `copy ${e.edition_number ?? "(number unknown)"} of ${e.edition_size ?? "an edition of unknown size"}`;
}

/** Share (POST /v1/artworks/share, 0 DU): a public address for this artwork, valid 30 days, and its page in the console. */
function shareButton(a: Artwork): HTMLElement {
  const out = h("span", { id: "share-result", role: "status" });
  const button = h("button", { type: "button", id: "share", class: "quiet" }, "Share");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const r = await send("POST /v1/artworks/share", {}, { ids: [a.id], title: a.description.name });
      const address = h("input", { id: "share-url", readonly: true, value: r.url, "aria-label": "the shared list's public address", size: 40 });
      const copied = h("span", { class: "sub" });
      const copy = h("button", { type: "button", class: "quiet" }, "Copy");
      copy.addEventListener("click", () => {
        address.select();
        navigator.clipboard?.writeText(r.url).then(
          () => (copied.textContent = "copied"),
          () => (copied.textContent = "selected: copy it with the keyboard"),
        );
      });
      out.replaceChildren(
        h("span", { class: "row" }, address, copy, copied),
        h("span", { class: "sub" }, h("a", { href: `#/shared/${r.token}`, id: "share-page" }, "as a page"), ` · until ${day(r.expires_at)}, no key needed`),
      );
    } catch (error) {
      out.replaceChildren(failure(error, "Sharing"));
      button.disabled = false;
    }
  });
  return h("span", { class: "share" }, button, out);
}

// ---- followed and shared -------------------------------------------------------------------

function followedPage(): void {
  const artists = h("div", { id: "followed-artists" });
  const artworks = h("div", { id: "followed-artworks" });
  const sales = h("div", { id: "followed-sales" });
  const lots = h("div", { id: "followed-lots" });
  main().replaceChildren(
    h("h1", {}, "Followed"),
    h("div", { class: "cols" }, h("section", {}, h("h2", {}, "Artists"), artists), h("section", {}, h("h2", {}, "Sales"), sales), h("section", {}, h("h2", {}, "Lots"), lots)),
    h("section", {}, h("h2", {}, "Artworks"), artworks),
  );
  const none = (what: string) => h("p", { class: "sub" }, `No ${what} followed yet: the Follow button on a page adds one.`);
  slot(artists, "Followed artists", async () => {
    const r = await call("/v1/artists/followed", { limit: 50 });
    return r.artists.length
      ? h(
          "ul",
          {},
          r.artists.map((a) => h("li", { "data-artist-id": a.id }, h("a", { href: `#/artist/${a.id}` }, a.name))),
        )
      : none("artists");
  });
  slot(sales, "Followed sales", async () => {
    const r = await call("/v1/sales/followed", { limit: 50 });
    return r.sales.length
      ? h(
          "ul",
          {},
          r.sales.map((x) => h("li", { "data-sale-id": x.id }, h("a", { href: `#/sale/${x.id}` }, x.name), ` ${day(x.start_datetime)}`)),
        )
      : none("sales");
  });
  slot(lots, "Followed lots", async () => {
    const r = await call("/v1/lots/followed", { limit: 50 });
    return r.lots.length
      ? h(
          "ul",
          {},
          r.lots.map((l) => h("li", { "data-lot-id": l.id }, h("a", { href: `#/lot/${l.id}` }, `Lot ${l.lot_num}: ${l.artwork.name}`), ` ${l.sale.name}`)),
        )
      : none("lots");
  });
  slot(artworks, "Followed artworks", async () => {
    const r = await call("/v1/artworks/followed", { limit: 24 });
    return r.items.length
      ? h(
          "div",
          { class: "cards" },
          r.items.map((a) => artworkCard(a)),
        )
      : none("artworks");
  });
}

/** A shared list of artworks (GET /v1/artworks/shared/{token}: public, 0 DU). */
function sharedPage(token: string): void {
  const list = h("div", { id: "shared-list" }, "Loading…");
  main().replaceChildren(list);
  slot(list, "The shared list", async () => {
    const r = await call("/v1/artworks/shared/{token}", { token }, { anonymous: !key.get() });
    return [
      h("h1", {}, r.title ?? "Shared artworks"),
      h("p", { class: "sub" }, `${int(r.total_count)} artwork${r.total_count === 1 ? "" : "s"}, shared until ${day(r.expires_at)}.`),
      h(
        "div",
        { class: "cards" },
        r.items.map((a) => artworkCard(a)),
      ),
    ];
  });
}

// ---- search by image -----------------------------------------------------------------------

function searchPage(): void {
  const file = h("input", { id: "search-file", type: "file", name: "image", accept: "image/jpeg,image/png,image/webp,image/gif,image/tiff", required: true });
  const minScore = h("input", { id: "search-min-score", type: "number", name: "min_score", min: "0", max: "1", step: "0.01", value: "" });
  const artist = h("input", { id: "search-artist", type: "number", name: "artist_id", min: "1", value: "" });
  const preview = h("div", { class: "preview" });
  const results = h("div", { id: "search-results", "aria-live": "polite" });
  /** What the last search sent (the picture and the options): the Search button after a pick runs only what changed, so one search is charged once. */
  let last: { anchor: File | string; options: string } | null = null;
  /** Searches by a picked file (shown as a preview) or by a picture's address (fetched by the server: this page loads nothing from elsewhere). */
  const run = async (anchor: File | string) => {
    const options = `${minScore.value}|${artist.value}`;
    if (last !== null && last.anchor === anchor && last.options === options) return;
    last = { anchor, options };
    const body = new FormData();
    if (typeof anchor === "string") {
      preview.replaceChildren(h("p", { class: "sub" }, "The service fetches the picture at that address and searches by it."));
      body.set("image_url", anchor);
    } else {
      preview.replaceChildren(h("img", { src: URL.createObjectURL(anchor), alt: "the picture searched for" }));
      body.set("image", anchor);
    }
    body.set("limit", "24");
    if (minScore.value) body.set("min_score", minScore.value);
    await slot(results, "Search by image", async () => {
      const r = await send("POST /v1/artworks/search-by-image", { artist_id: artist.value || undefined }, body).catch((error: unknown) => {
        last = null; // a failed search may be tried again with the same picture
        throw error;
      });
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
  const address = h("input", { id: "search-url", type: "url", name: "image_url", placeholder: "https://…", required: true, maxlength: 2048 });
  const byAddress = h(
    "form",
    {
      id: "search-by-url",
      class: "drop",
      onsubmit: (e: Event) => {
        e.preventDefault();
        if (address.value.trim()) run(address.value.trim());
      },
    },
    h("label", { for: "search-url" }, "Or paste the address of a picture (http or https)"),
    h("div", { class: "row" }, address, h("button", { type: "submit" }, "Search by address")),
  );
  main().replaceChildren(h("h1", {}, "Search by image"), drop, byAddress, preview, results);
}

// ---- routing -------------------------------------------------------------------------------

/** The nav entry a detail page belongs to. */
const SECTION: Record<string, string> = { artist: "artists", artwork: "artists", sale: "sales", lot: "sales", collectable: "collection" };

function route(): void {
  const setting = /^#set-password=([\w-]+)$/.exec(location.hash)?.[1];
  if (setting) {
    setPasswordPage(setting);
    return;
  }
  const ssoError = /^#sso-error=(.*)$/.exec(location.hash)?.[1];
  if (ssoError !== undefined) {
    signInPage(`Single sign-on failed: ${decodeURIComponent(ssoError)}`);
    return;
  }
  if (location.hash === "#/signed-in") {
    signedInPage();
    return;
  }
  const [path = "/", query = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const page = path.split("/")[1] || "sign-in";
  const section = `/${SECTION[page] ?? page}`;
  for (const a of document.querySelectorAll<HTMLAnchorElement>("#nav a")) a.toggleAttribute("aria-current", a.getAttribute("href")!.slice(1) === section);
  const id = /^\/[a-z]+\/(\d+)$/.exec(path)?.[1];
  const shared = /^\/shared\/([\w-]+)$/.exec(path)?.[1];
  if (path === "/artists") artistsPage(params);
  else if (shared) sharedPage(shared);
  else if (!key.get()) signInPage();
  else if (page === "artist" && id) artistPage(Number(id), params);
  else if (page === "artwork" && id) artworkPage(Number(id));
  else if (path === "/search") searchPage();
  else if (path === "/sales") salesPage(params);
  else if (page === "sale" && id) salePage(Number(id), params);
  else if (page === "lot" && id) lotPage(Number(id));
  else if (path === "/collection") collectionPage(params);
  else if (page === "collectable" && id) collectablePage(Number(id));
  else if (path === "/usage") usagePage(params);
  else if (path === "/followed") followedPage();
  else if (path === "/keys") keysPage();
  else if (path === "/admin") adminPage();
  else if (path === "/notifications") notificationsPage();
  else if (path === "/webhooks") webhooksPage();
  else signInPage();
  if (key.get() && path !== "/notifications") void refreshUnread();
  main().focus({ preventScroll: true });
  window.scrollTo(0, 0);
  document.body.dataset.page = page;
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
