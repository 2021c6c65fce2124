// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * What every page of the console builds with: elements from data (text always as text), money and
 * number formats, slots that fill when their call answers (or say why they cannot), pictures that
 * keep their box while they load, pagers, and the follow button.
 */
import { CURRENCY_CODES } from "../../market/currencies";
import { ApiError, type Artwork, call, type FollowKind, key, send } from "./api";

export type Child = Node | string | number | null | undefined | false;

/** Builds an element; text is always set as text, never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, unknown> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
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

/** The currencies the API converts to (`preferred_currency`). */
export const CURRENCY_CHOICES = CURRENCY_CODES;
const CURRENCY_ITEM = "artmarket.currency";
/**
 * The user's preferred currency (this browser's local storage; USD until one is picked): the
 * catalogue and the lot pages show estimates, hammers and forecasts in it, converted by the API
 * (`preferred_currency`) at the sale day's rate, the sale's own currency beside them.
 */
export const preferredCurrency = {
  get: (): string => {
    const c = localStorage.getItem(CURRENCY_ITEM);
    return c && (CURRENCY_CHOICES as readonly string[]).includes(c) ? c : "USD";
  },
  set: (code: string) => localStorage.setItem(CURRENCY_ITEM, code),
};

/** An amount in a currency (the API's ISO code), whole units. */
export const usd = (v: number | null | undefined, currency = "USD") =>
  v === null || v === undefined ? "–" : new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(v);
export const pct = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? "–" : `${v > 0 ? "+" : ""}${v.toFixed(digits)} %`);
export const int = (v: number | null | undefined) => (v === null || v === undefined ? "–" : new Intl.NumberFormat("en-US").format(v));
/** A share (0..1) as a whole percentage, no sign. */
export const share = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${Math.round(v * 100)} %`);
/** The date of an ISO date-time, as the API gives it (UTC). */
export const day = (iso: string) => iso.slice(0, 10);

export const main = () => document.getElementById("main")!;

/** Where a locked section can be had, by what the plan lacks (the 403's detail names the entitlement). */
function unlockHint(detail: string): string {
  if (detail.includes("collectables")) return "A plan with the collectables entitlement sees it: the operator sets the key's plan.";
  return "A pro or enterprise key sees it.";
}

/** A section that failed: a plan without the entitlement says why (the API's 403), others show the error. */
export function failure(error: unknown, what: string): HTMLElement {
  if (error instanceof ApiError && error.status === 403) {
    return h("div", { class: "locked", role: "note" }, h("b", {}, `${what} is locked for this key. `), `${error.detail}. ${unlockHint(error.detail)}`);
  }
  if (error instanceof ApiError && error.status === 401) return h("div", { class: "locked", role: "note" }, h("b", {}, `${what} needs a key. `), h("a", { href: "#/" }, "Sign in"));
  return h("div", { class: "error", role: "alert" }, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Fills a slot when its call answers, without holding up the rest of the page. */
export async function slot(el: HTMLElement, what: string, load: () => Promise<Child | Child[]>): Promise<void> {
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
export function srcset(urls: Record<string, string>): string {
  return Object.entries(urls)
    .map(([name, url]) => [Number(name.replace(/\D/g, "")), url] as const)
    .filter(([w]) => w > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([w, url]) => `${url} ${w}w`)
    .join(", ");
}

/**
 * A picture in a box of the given proportions (width / height, from the work's measurements; a
 * square where they are unknown), so that nothing moves while it loads.
 */
export function pictureBox(urls: Record<string, string> | null, ratio: string, sizes: string, alt: string, eager = false): HTMLElement {
  if (!urls) return h("div", { class: "pic empty", style: { aspectRatio: ratio } }, "no image");
  const fallback = urls.w480 ?? Object.values(urls)[0];
  return h(
    "div",
    { class: "pic", style: { aspectRatio: ratio } },
    h("img", { src: fallback, srcset: srcset(urls), sizes, alt, loading: eager ? "eager" : "lazy", decoding: "async" }),
  );
}

/** Width / height for CSS aspect-ratio, or a square. */
export function ratioOf(width: number | null | undefined, height: number | null | undefined): string {
  return width && height ? `${width} / ${height}` : "1 / 1";
}

/** An artwork's picture: the browser picks the rendition by the width it is shown at; the box keeps the work's proportions while it loads. */
export function picture(a: Artwork, sizes: string, eager = false): HTMLElement {
  const m = a.description.measurements;
  return pictureBox(a.description.image?.urls ?? null, ratioOf(m?.width_cm, m?.height_cm), sizes, `${a.description.name}, ${a.description.artist.name}`, eager);
}

export function artworkCard(a: Artwork, score?: number): HTMLElement {
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

// ---- controls --------------------------------------------------------------------------------

/** Previous / position / next links for an offset-paged list; `more` says whether a next page exists. */
export function pager(offset: number, limit: number, shown: number, more: boolean, total: number | null, href: (offset: number) => string): HTMLElement {
  return h(
    "nav",
    { class: "pager", "aria-label": "pages" },
    offset > 0 ? h("a", { href: href(Math.max(0, offset - limit)), rel: "prev" }, "← Previous") : h("span", {}),
    h("span", {}, shown ? `${offset + 1}–${offset + shown}${total !== null ? ` of ${int(total)}` : ""}` : "none"),
    more ? h("a", { href: href(offset + limit), rel: "next" }, "Next →") : h("span", {}),
  );
}

/**
 * A follow button (POST and DELETE /v1/{kind}/{id}/follow, 0 DU): aria-pressed says whether the
 * caller follows the record, and flips only once the API has answered.
 */
export function followButton(kind: FollowKind, id: number, followed: boolean): HTMLElement {
  const status = h("span", { class: "sub", role: "status" });
  const button = h("button", { type: "button", class: "toggle", id: "follow", "aria-pressed": String(followed) }, followed ? "Following" : "Follow");
  button.addEventListener("click", async () => {
    const now = button.getAttribute("aria-pressed") === "true";
    button.disabled = true;
    status.textContent = "";
    try {
      if (now) await send(`DELETE /v1/${kind}/{id}/follow`, { id });
      else await send(`POST /v1/${kind}/{id}/follow`, { id });
      button.setAttribute("aria-pressed", String(!now));
      button.textContent = now ? "Follow" : "Following";
    } catch (error) {
      status.textContent = error instanceof ApiError ? error.detail : String(error);
    } finally {
      button.disabled = false;
    }
  });
  return h("span", { class: "follow" }, button, status);
}

/**
 * A read that is made once per key and then kept (reference lists, the global index): another key
 * (its plan may not have it) reads again; a failed read is tried again next time.
 */
export function cached<T>(get: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  let owner: string | null = null;
  return () => {
    if (owner !== key.get()) {
      kept = undefined;
      owner = key.get();
    }
    kept ??= get().catch((error) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}

/** The categories (1 DU), read once per key: the upload form's choices, the sales volume's rows. */
export const categories = cached(() => call("/v1/categories"));

/** A label wrapping its control (the filter forms' layout). */
export function field(label: string, control: HTMLElement): HTMLElement {
  return h("label", {}, label, control);
}

/** A select of [value, label] pairs with `current` selected. */
export function choice(name: string, options: readonly (readonly [string, string])[], current: string, attrs: Record<string, unknown> = {}): HTMLSelectElement {
  return h(
    "select",
    { name, ...attrs },
    options.map(([value, label]) => h("option", { value, selected: value === current }, label)),
  );
}

/** The hash of a list page with its form's non-empty fields (offset back to 0). */
export function formHash(page: string, form: HTMLFormElement): string {
  const next = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (String(v) !== "") next.set(k, String(v));
  next.set("offset", "0");
  return `#/${page}?${next}`;
}
