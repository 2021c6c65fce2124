// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * My collection (the collectables area, a plan entitlement):
 *   #/collection?…      the caller's collectables, each with its value in effect against the
 *                       market's (machine) estimate; an upload form that adds a work from a picture
 *   #/collectable/ID    one collectable: picture, values, appraisals and provenance (both addable)
 * and the artwork page's "Add to my collection", which seeds a collectable from a market artwork.
 * A plan without the entitlement gets the API's 403, shown in place with the reason.
 */
import { ApiError, type Appraisal, type Artwork, type Collectable, type CollectableList, call, type Provenance, send, type SuggestedMatch } from "./api";
import { categories, choice, day, failure, field, formHash, h, int, main, pager, pct, pictureBox, ratioOf, slot, usd } from "./ui";

const SOURCE_LABEL: Record<string, string> = { manual: "your own value", acquisition: "the price paid", machine: "the market estimate" };
const BASIS_LABEL: Record<string, string> = { suggested_artwork: "from the artwork it was added from", comparable_works: "from the artist's comparable works" };
const SORTS = [
  ["CREATED_AT_DESC", "added, newest first"],
  ["VALUE_DESC", "value, highest first"],
  ["TITLE_ASC", "title"],
  ["ARTIST_NAME_ASC", "artist"],
] as const;

/** The collectable's two renditions as the srcset the pictures use. */
function urlsOf(c: Collectable): Record<string, string> | null {
  if (!c.image_url) return null;
  return c.image_thumbnail_url ? { w240: c.image_thumbnail_url, w1200: c.image_url } : { w1200: c.image_url };
}

function ratio(c: Collectable): string {
  return ratioOf(c.measurements_width, c.measurements_height);
}

/** How far the value in effect is from the market's estimate, as a percentage of the estimate. */
function gap(c: Collectable): number | null {
  if (c.current_estimated_price == null || !c.machine_estimated_price) return null;
  return ((c.current_estimated_price - c.machine_estimated_price) / c.machine_estimated_price) * 100;
}

export function collectionPage(params: URLSearchParams): void {
  const limit = Number(params.get("limit") ?? 20);
  const offset = Number(params.get("offset") ?? 0);
  const sort = params.get("sort") ?? "CREATED_AT_DESC";
  const form = h(
    "form",
    {
      class: "row",
      id: "collection-sort",
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = formHash("collection", form);
      },
    },
    field("Sort by", choice("sort", SORTS, sort)),
    h("button", { type: "submit" }, "Apply"),
  );
  const list = h("div", { id: "collection-list" });
  const upload = uploadForm();
  main().replaceChildren(h("h1", {}, "My collection"), form, list, upload);
  slot(list, "My collection", async () => {
    let page: CollectableList;
    try {
      page = await call("/v1/collectables", { limit, offset, sort });
    } catch (error) {
      // without the entitlement there is nothing to add to either
      if (error instanceof ApiError && error.status === 403) upload.remove();
      throw error;
    }
    if (!page.items.length && !offset) {
      return h("p", { id: "collection-empty" }, "Nothing here yet. Add a work from its artwork page (", h("a", { href: "#/artists" }, "find one"), ") or from a picture below.");
    }
    const valued = page.items.filter((c) => c.current_estimated_price != null);
    const total = valued.reduce((sum, c) => sum + c.current_estimated_price!, 0);
    const market = page.items.filter((c) => c.machine_estimated_price != null).reduce((sum, c) => sum + c.machine_estimated_price!, 0);
    return [
      h(
        "p",
        { id: "collection-summary" },
        `${int(page.total_count)} work${page.total_count === 1 ? "" : "s"}. Those shown are worth `,
        h("b", { "data-value": total }, usd(total)),
        " (the value in effect of each), against a market estimate of ",
        h("b", { "data-value": market }, usd(market)),
        ".",
      ),
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "grid", id: "collection-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["", "Work", "Artist", "Value in effect", "Market estimate", "Difference"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            {},
            page.items.map((c) => {
              const d = gap(c);
              return h(
                "tr",
                { "data-collectable-id": c.id, "data-value": c.current_estimated_price ?? "", "data-machine": c.machine_estimated_price ?? "" },
                h("td", { class: "thumb" }, pictureBox(urlsOf(c), ratio(c), "64px", c.title)),
                h("td", {}, h("a", { href: `#/collectable/${c.id}` }, c.title), c.creation_year ? `, ${c.creation_year}` : ""),
                h("td", {}, c.artist_name ?? `artist ${c.artist_id}`),
                h(
                  "td",
                  { class: "num" },
                  usd(c.current_estimated_price),
                  c.current_price_source && h("div", { class: "sub" }, SOURCE_LABEL[c.current_price_source] ?? c.current_price_source),
                ),
                h("td", { class: "num" }, usd(c.machine_estimated_price)),
                h("td", { class: `num ${d !== null && d < 0 ? "down" : "up"}` }, d === null ? "–" : pct(d)),
              );
            }),
          ),
        ),
      ),
      pager(offset, limit, page.items.length, offset + page.items.length < page.total_count, page.total_count, (o) => `#/collection?sort=${sort}&limit=${limit}&offset=${o}`),
    ];
  });
}

/** Add a work from a picture: the file, its title, the artist (found by name), category and edition type. */
function uploadForm(): HTMLElement {
  const message = h("p", { role: "status", id: "upload-message" });
  const artistQuery = h("input", { type: "search", id: "upload-artist-q", placeholder: "name", "aria-describedby": "upload-artist-help" });
  const artist = h("select", { name: "artist_id", id: "upload-artist", required: true }, h("option", { value: "" }, "find the artist first"));
  const category = h("select", { name: "category_id", id: "upload-category", required: true }, h("option", { value: "" }, "…"));
  const find = async () => {
    const q = artistQuery.value.trim();
    if (!q) return;
    try {
      const r = await call("/v1/artists", { q, limit: 10 });
      artist.replaceChildren(
        ...(r.artists.length
          ? r.artists.map((a) => h("option", { value: a.id }, `${a.name}${a.birth ? ` (${a.birth})` : ""}`))
          : [h("option", { value: "" }, "no artist by that name")]),
      );
    } catch (error) {
      message.replaceChildren(failure(error, "The artist search"));
    }
  };
  artistQuery.addEventListener("keydown", (e: KeyboardEvent) => {
    // Enter in the name field looks the artist up instead of sending the form
    if (e.key === "Enter") {
      e.preventDefault();
      find();
    }
  });
  categories()
    .then((list) => category.replaceChildren(...list.map((c) => h("option", { value: c.id }, c.name))))
    .catch((error) => message.replaceChildren(failure(error, "The categories")));
  const form = h(
    "form",
    {
      id: "collection-upload",
      class: "drop",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const body = new FormData(form);
        for (const [k, v] of [...body]) if (v === "" || (v instanceof File && !v.size)) body.delete(k);
        message.textContent = "Adding…";
        try {
          const c = await send("POST /v1/collectables", {}, body);
          location.hash = `#/collectable/${c.id}`;
        } catch (error) {
          message.replaceChildren(failure(error, "Adding the work"));
        }
      },
    },
    h("h2", {}, "Add a work from a picture"),
    h("label", { for: "upload-file" }, "Picture (JPEG, PNG, WebP, GIF or TIFF)"),
    h("input", { id: "upload-file", type: "file", name: "image", accept: "image/jpeg,image/png,image/webp,image/gif,image/tiff", required: true }),
    h(
      "div",
      { class: "filters" },
      field("Title", h("input", { name: "title", id: "upload-title", required: true, maxlength: 500 })),
      h("label", {}, "Artist's name", h("span", { class: "row" }, artistQuery, h("button", { type: "button", id: "upload-artist-find", onclick: find }, "Find"))),
      field("Artist", artist),
      field("Category", category),
      field(
        "Edition",
        choice(
          "edition_unique_type",
          [
            ["unique", "unique"],
            ["edition", "one of an edition"],
          ],
          "unique",
        ),
      ),
      field("Year made", h("input", { name: "creation_year", type: "number", min: 0, max: 2100 })),
    ),
    h("p", { class: "sub", id: "upload-artist-help" }, "The market estimate comes from the artist's comparable works. Adding costs 1 DU."),
    h("div", {}, h("button", { type: "submit" }, "Add to my collection")),
    message,
  );
  return h("section", {}, form);
}

/** The artwork page's action: a collectable seeded from this market artwork (title, year, sizes, image, edition). */
export function addToCollection(a: Artwork): HTMLElement {
  const status = h("span", { role: "status", id: "add-to-collection-status" });
  const button = h("button", { type: "button", id: "add-to-collection" }, "Add to my collection");
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "Adding…";
    const body = new FormData();
    body.set("artist_id", String(a.description.artist.id));
    body.set("category_id", String(a.description.category_id));
    body.set("edition_unique_type", a.description.edition?.edition_unique_type ?? "unique");
    body.set("suggested_artwork_id", String(a.id));
    try {
      const c = await send("POST /v1/collectables", {}, body);
      status.replaceChildren("Added: ", h("a", { href: `#/collectable/${c.id}`, "data-collectable-id": c.id }, c.title), `, valued at ${usd(c.current_estimated_price)}.`);
    } catch (error) {
      status.replaceChildren(failure(error, "My collection"));
      button.disabled = false;
    }
  });
  return h("span", { class: "follow" }, button, status);
}

export function collectablePage(id: number): void {
  const head = h("div", { id: "collectable-head", class: "artwork" }, "Loading…");
  const appraisals = h("section", { id: "collectable-appraisals" });
  const provenance = h("section", { id: "collectable-provenance" });
  main().replaceChildren(head, h("div", { class: "cols" }, appraisals, provenance));
  const record = call("/v1/collectables/{id}", { id });
  // linking a suggested match draws the head again with the new valuation and a note of the change
  const draw = (c: Collectable, note?: HTMLElement): HTMLElement[] => collectableHead(c, (linked, was) => head.replaceChildren(...draw(linked, linkedNote(linked, was))), note);
  slot(head, "The collectable", async () => draw(await record));
  record.then(
    (c) => {
      appraisalSection(appraisals, c);
      provenanceSection(provenance, c);
    },
    () => undefined,
  );
}

/**
 * The market artworks the picture matches closely (suggested_matches), each with a button that
 * links the record to it (PATCH suggested_artwork_id, and artist_id when the artwork is by another
 * artist: only an artwork by the record's artist gives the estimate). Null when there are none.
 */
function matchOffer(c: Collectable, onLinked: (linked: Collectable, was: Collectable) => void): HTMLElement | null {
  const matches: SuggestedMatch[] = c.suggested_artwork_id == null ? (c.suggested_matches ?? []) : [];
  if (!matches.length) return null;
  const status = h("span", { role: "status", id: "collectable-match-status" });
  const offer = (m: SuggestedMatch) => {
    const button = h("button", { type: "button", class: "link-match", "data-artwork-id": m.artwork_id }, "Link it");
    button.addEventListener("click", async () => {
      for (const b of offers.querySelectorAll("button")) b.disabled = true;
      status.textContent = "Linking…";
      const body: Record<string, number> = { suggested_artwork_id: m.artwork_id };
      if (m.artist_id !== c.artist_id) body.artist_id = m.artist_id;
      try {
        onLinked(await send("PATCH /v1/collectables/{id}", { id: c.id }, body), c);
      } catch (error) {
        status.replaceChildren(failure(error, "Linking the artwork"));
        for (const b of offers.querySelectorAll("button")) b.disabled = false;
      }
    });
    return h(
      "li",
      { "data-artwork-id": m.artwork_id, "data-score": m.score },
      "This looks like ",
      h("a", { href: `#/artwork/${m.artwork_id}` }, m.title),
      m.artist_name ? ` by ${m.artist_name}` : "",
      ` (score ${m.score.toFixed(3)}). `,
      button,
    );
  };
  const offers = h("ul", {}, matches.map(offer));
  return h(
    "div",
    { id: "collectable-matches", class: "suggestion" },
    offers,
    h("p", { class: "sub" }, "Its picture matches this market artwork closely. Linking values it at the artwork's estimate (1 DU)."),
    status,
  );
}

/** What linking changed: the artwork and the market estimate before and after. */
function linkedNote(c: Collectable, was: Collectable): HTMLElement {
  return h(
    "p",
    { role: "status", id: "collectable-linked" },
    "Linked to the market artwork: the market estimate is now ",
    h("b", { "data-value": c.machine_estimated_price ?? "" }, usd(c.machine_estimated_price)),
    ` (was ${usd(was.machine_estimated_price)}).`,
  );
}

function collectableHead(c: Collectable, onLinked: (linked: Collectable, was: Collectable) => void, note?: HTMLElement): HTMLElement[] {
  const d = gap(c);
  const size =
    c.measurements_height && c.measurements_width
      ? `${c.measurements_height} × ${c.measurements_width}${c.measurements_depth ? ` × ${c.measurements_depth}` : ""} ${c.measurements_unit}`
      : null;
  const edition = c.edition_unique_type === "edition" ? `edition${c.edition_number ? ` ${c.edition_number}` : ""}${c.edition_size ? `/${c.edition_size}` : ""}` : "unique";
  const remove = h("button", { type: "button", class: "quiet", id: "collectable-remove" }, "Remove from my collection");
  const removeStatus = h("span", { role: "status" });
  remove.addEventListener("click", async () => {
    // two steps: the first press asks, the second removes
    if (remove.dataset.confirm !== "true") {
      remove.dataset.confirm = "true";
      remove.textContent = "Press again to remove it for good";
      return;
    }
    remove.disabled = true;
    try {
      await send("DELETE /v1/collectables/{id}", { id: c.id });
      location.hash = "#/collection";
    } catch (error) {
      removeStatus.replaceChildren(failure(error, "Removing"));
      remove.disabled = false;
    }
  });
  return [
    h("div", { class: "hero" }, pictureBox(urlsOf(c), ratio(c), "(max-width: 700px) 100vw, 560px", c.title, true)),
    h(
      "div",
      {},
      h("p", { class: "sub" }, h("a", { href: "#/collection" }, "My collection")),
      h("h1", {}, c.title, c.creation_year ? `, ${c.creation_year}` : ""),
      h("p", {}, h("a", { href: `#/artist/${c.artist_id}` }, c.artist_name ?? `artist ${c.artist_id}`)),
      h("p", { class: "sub" }, [c.category_name, size, edition].filter(Boolean).join(" · ")),
      h(
        "dl",
        { class: "facts", id: "collectable-values" },
        h("dt", {}, "Value in effect"),
        h("dd", { "data-value": c.current_estimated_price ?? "" }, usd(c.current_estimated_price), c.current_price_source && ` (${SOURCE_LABEL[c.current_price_source]})`),
        h("dt", {}, "Market estimate"),
        h("dd", { "data-value": c.machine_estimated_price ?? "" }, usd(c.machine_estimated_price), c.machine_estimate_basis && ` (${BASIS_LABEL[c.machine_estimate_basis]})`),
        h("dt", {}, "Difference"),
        h("dd", {}, d === null ? "–" : pct(d)),
        c.manual_price_value != null && [h("dt", {}, "Your own value"), h("dd", {}, usd(c.manual_price_value))],
        c.acquisition.price != null && [
          h("dt", {}, "Price paid"),
          h("dd", {}, usd(c.acquisition.price, c.acquisition.currency ?? "USD"), c.acquisition.date && ` on ${c.acquisition.date}`),
        ],
        h("dt", {}, "Artist's momentum 12 mo"),
        h("dd", {}, c.price_momentum_12mo == null ? "–" : pct(c.price_momentum_12mo * 100)),
      ),
      c.suggested_artwork_id != null && h("p", {}, "Added from ", h("a", { href: `#/artwork/${c.suggested_artwork_id}` }, "a market artwork"), "."),
      note,
      matchOffer(c, onLinked),
      h("p", { class: "sub" }, `Added ${day(c.created_at)}.`),
      h("div", { class: "actions" }, remove, removeStatus),
    ),
  ];
}

function appraisalRow(a: Appraisal): HTMLElement {
  return h(
    "tr",
    { "data-appraisal-id": a.id },
    h("td", { class: "num" }, a.date),
    h("td", {}, a.type, a.is_best_guess && h("span", { class: "sub" }, " (best guess)")),
    h("td", { class: "num" }, usd(a.value, a.currency)),
    h("td", { class: "num" }, usd(a.value_usd)),
    h("td", {}, a.company_name ?? ""),
  );
}

function appraisalSection(el: HTMLElement, c: Collectable): void {
  const body = h("tbody", {}, c.appraisals.map(appraisalRow));
  const message = h("p", { role: "status" });
  const form = h(
    "form",
    {
      id: "appraisal-form",
      class: "filters",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
        try {
          const a = await send(
            "POST /v1/collectables/{id}/appraisals",
            { id: c.id },
            {
              type: data.type,
              value: Number(data.value),
              currency: (data.currency ?? "").trim().toUpperCase() || "USD",
              date: data.date,
              company_name: data.company_name || null,
            },
          );
          body.append(appraisalRow(a));
          empty.remove();
          form.reset();
          message.textContent = `Added the ${a.type} appraisal.`;
        } catch (error) {
          message.replaceChildren(failure(error, "The appraisal"));
        }
      },
    },
    field("Kind", h("input", { name: "type", required: true, maxlength: 100, placeholder: "insurance" })),
    field("Value", h("input", { name: "value", type: "number", min: 0, step: "any", required: true })),
    field("Currency", h("input", { name: "currency", value: "USD", maxlength: 3, size: 4, pattern: "[A-Za-z]{3}" })),
    field("Date", h("input", { name: "date", type: "date", required: true })),
    field("Appraiser", h("input", { name: "company_name", maxlength: 500 })),
    h("button", { type: "submit" }, "Add appraisal"),
  );
  const empty = h("p", {}, "No appraisals yet.");
  el.replaceChildren(
    h("h2", {}, "Appraisals"),
    ...(c.appraisals.length ? [] : [empty]),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", id: "appraisals-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["Date", "Kind", "Value", "USD", "Appraiser"].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        body,
      ),
    ),
    form,
    message,
  );
}

function provenanceItem(p: Provenance): HTMLElement {
  const years = p.year_from || p.year_to || p.is_up_to_present ? ` (${p.year_from ?? "?"}–${p.is_up_to_present ? "present" : (p.year_to ?? "?")})` : "";
  return h("li", { "data-provenance-id": p.id }, h("b", {}, p.owner), p.location ? `, ${p.location}` : "", years);
}

function provenanceSection(el: HTMLElement, c: Collectable): void {
  const list = h("ol", { id: "provenance-list" }, c.provenance.map(provenanceItem));
  const message = h("p", { role: "status" });
  const form = h(
    "form",
    {
      id: "provenance-form",
      class: "filters",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const data = new FormData(form);
        const year = (name: string) => (data.get(name) ? Number(data.get(name)) : null);
        try {
          const p = await send(
            "POST /v1/collectables/{id}/provenance",
            { id: c.id },
            {
              owner: String(data.get("owner")),
              location: String(data.get("location") ?? "") || null,
              year_from: year("year_from"),
              year_to: data.get("is_up_to_present") ? null : year("year_to"),
              is_up_to_present: data.get("is_up_to_present") === "on",
            },
          );
          list.append(provenanceItem(p));
          empty.remove();
          form.reset();
          message.textContent = `Added ${p.owner}.`;
        } catch (error) {
          message.replaceChildren(failure(error, "The provenance entry"));
        }
      },
    },
    field("Owner", h("input", { name: "owner", required: true, maxlength: 500 })),
    field("Where", h("input", { name: "location", maxlength: 500 })),
    field("From (year)", h("input", { name: "year_from", type: "number", min: 0, max: 2100 })),
    field("To (year)", h("input", { name: "year_to", type: "number", min: 0, max: 2100 })),
    h("label", { class: "check" }, h("input", { name: "is_up_to_present", type: "checkbox" }), "to the present"),
    h("button", { type: "submit" }, "Add owner"),
  );
  const empty = h("p", {}, "No provenance yet.");
  el.replaceChildren(h("h2", {}, "Provenance"), ...(c.provenance.length ? [] : [empty]), list, form, message);
}
