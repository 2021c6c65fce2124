// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * #/notifications: the caller's feed (GET /v1/notifications, 1 DU a page), newest first, with
 * links to what each event concerns; #/webhooks: the caller's destinations (make one and see its
 * secret once; send a test event; turn off or on; a new secret; remove) and a destination's
 * deliveries with redelivery; the unread count in the header (refreshUnread). docs/webhooks.md.
 */
import { account, key, problemText, session } from "./api";
import { h, main } from "./ui";

interface FeedEvent {
  id: string;
  type: string;
  occurred_at: string;
  subject: { kind: string; id: number };
  data: Record<string, unknown>;
}
interface Hook {
  id: number;
  url: string;
  event_types: string[];
  status: string;
  disabled_reason: string | null;
  secret?: string;
}
interface Delivery {
  id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
}

const TYPES = ["lot.consigned", "lot.sold", "lot.passed", "lot.withdrawn", "sale.results_published", "artwork.estimate_changed", "artist.index_moved"];

/** What an event says, in words. */
function sentence(e: FeedEvent): string {
  const d = e.data;
  const money = (v: unknown) => (typeof v === "number" ? `${Math.round(v).toLocaleString("en-US")} ${d.currency ?? ""}`.trim() : "");
  switch (e.type) {
    case "lot.consigned":
      return `Consigned, estimate ${money(d.estimate_min)} – ${money(d.estimate_max)}`;
    case "lot.sold":
      return `Sold for ${money(d.hammer)}${d.against_estimate ? ` (${d.against_estimate} the estimate)` : ""}`;
    case "lot.passed":
      return "Passed (bought in)";
    case "lot.withdrawn":
      return "Withdrawn";
    case "sale.results_published":
      return "Results published";
    case "artwork.estimate_changed":
      return typeof d.change === "number"
        ? `Estimate ${d.change >= 0 ? "up" : "down"} ${Math.abs(d.change * 100).toFixed(1)} % to ${money(d.estimate_usd)} USD`
        : "Estimate changed";
    case "artist.index_moved":
      return typeof d.change === "number"
        ? `Index ${d.change >= 0 ? "up" : "down"} ${Math.abs(d.change * 100).toFixed(1)} % in ${d.month}`
        : `Index moved in ${d.month ?? "the month"}`;
    default:
      return e.type;
  }
}

// ---- the unread count in the header ---------------------------------------------------------

/** Where the newest event the caller has seen is kept: per user (session's email, else the key), in this browser. */
function seenItem(): string {
  let hash = 2166136261;
  for (const c of session.get()?.email ?? key.get() ?? "") hash = Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0;
  return `artmarket.notifications-seen.${hash.toString(36)}`;
}

function showUnread(n: number): void {
  const badge = document.getElementById("unread");
  if (!badge) return;
  badge.textContent = n >= 999 ? "999+" : String(n);
  badge.hidden = n === 0;
  badge.setAttribute("aria-label", `${badge.textContent} unread`);
}

let checked = 0;

/**
 * The header's badge: how many notifications came after the newest one seen here
 * (GET /v1/notifications/unread, free, unlogged), at most once a minute unless `now`.
 */
export async function refreshUnread(now = false): Promise<void> {
  if (!key.get() || (!now && Date.now() - checked < 60_000)) return;
  checked = Date.now();
  const after = localStorage.getItem(seenItem());
  try {
    const r = await account<{ unread: number }>("GET", `/v1/notifications/unread${after ? `?after=${encodeURIComponent(after)}` : ""}`, undefined, {
      withKey: true,
      unlogged: true,
    });
    showUnread(r.unread);
  } catch {
    // a badge is not worth an error message: the next page tries again
  }
}

export async function notificationsPage(): Promise<void> {
  const list = h("ol", { id: "notifications", class: "feed" });
  const more = h("button", { type: "button", id: "notifications-more", hidden: true }, "Older");
  const message = h("p", { id: "notifications-message", role: "status" });
  let cursor: string | null = null;
  const load = async () => {
    try {
      const page = await account<{ items: FeedEvent[]; next_cursor: string | null }>("GET", `/v1/notifications?limit=20${cursor ? `&cursor=${cursor}` : ""}`, undefined, {
        withKey: true,
      });
      list.append(
        ...page.items.map((e) =>
          h(
            "li",
            { "data-event-id": e.id, "data-type": e.type },
            h("time", { datetime: e.occurred_at }, e.occurred_at.slice(0, 10)),
            " ",
            h("a", { href: `#/${e.subject.kind}/${e.subject.id}` }, `${e.subject.kind} ${e.subject.id}`),
            ": ",
            sentence(e),
          ),
        ),
      );
      // the first page read: its newest event is seen
      if (cursor === null && page.items[0]) localStorage.setItem(seenItem(), page.items[0].id);
      if (cursor === null) showUnread(0);
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      if (!list.children.length) message.textContent = "Nothing yet: follow artists, artworks, lots or sales, and each new snapshot's events about them appear here.";
    } catch (error) {
      message.textContent = problemText(error);
    }
  };
  more.onclick = load;
  main().replaceChildren(h("h1", {}, "Notifications"), h("p", {}, h("a", { href: "#/webhooks" }, "Send them to your systems (webhooks)")), message, list, more);
  await load();
}

export async function webhooksPage(): Promise<void> {
  const message = h("p", { id: "webhooks-message", role: "status" });
  const shown = h("div", { id: "webhook-shown" });
  const rows = h("tbody", { id: "webhooks-rows" });
  const deliveries = h("div", { id: "webhook-deliveries" });
  const act = async (method: string, path: string, body?: object) => {
    try {
      const r = await account<Hook | { event_id: string } | null>(method, path, body);
      if (r && "secret" in r && r.secret)
        shown.replaceChildren(h("div", { class: "note", role: "status" }, h("p", {}, "The signing secret, shown only now:"), h("pre", { id: "webhook-secret" }, r.secret)));
      else if (r && "event_id" in r) shown.replaceChildren(h("p", { role: "status", id: "webhook-test-sent" }, `Test event ${r.event_id} queued.`));
    } catch (error) {
      message.textContent = problemText(error);
    }
    await refresh();
  };
  const showDeliveries = async (hook: Hook) => {
    const page = await account<{ items: Delivery[] }>("GET", `/v1/webhooks/${hook.id}/deliveries?limit=50`);
    deliveries.replaceChildren(
      h("h2", {}, `Deliveries to ${hook.url}`),
      h(
        "table",
        { class: "grid" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["Event", "Type", "Status", "Attempts", "Last answer", ""].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        h(
          "tbody",
          {},
          page.items.map((d) =>
            h(
              "tr",
              { "data-delivery-id": d.id, "data-status": d.status },
              h("td", {}, h("code", {}, d.event_id)),
              h("td", {}, d.event_type),
              h("td", {}, d.status),
              h("td", { class: "num" }, d.attempts),
              h("td", {}, d.last_status ?? d.last_error ?? ""),
              h(
                "td",
                {},
                d.status === "pending" ? null : h("button", { type: "button", onclick: () => act("POST", `/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`) }, "Send again"),
              ),
            ),
          ),
        ),
      ),
    );
  };
  const refresh = async () => {
    try {
      const { items } = await account<{ items: Hook[] }>("GET", "/v1/webhooks");
      rows.replaceChildren(
        ...items.map((w) =>
          h(
            "tr",
            { "data-webhook-id": w.id, "data-status": w.status },
            h("td", {}, w.url),
            h("td", {}, w.event_types.join(", ")),
            h("td", {}, w.status, w.disabled_reason ? h("span", { class: "sub" }, ` (${w.disabled_reason})`) : null),
            h(
              "td",
              {},
              h("button", { type: "button", class: "send-test", onclick: () => act("POST", `/v1/webhooks/${w.id}/test`) }, "Send test event"),
              " ",
              h(
                "button",
                { type: "button", class: "toggle", onclick: () => act("PATCH", `/v1/webhooks/${w.id}`, { status: w.status === "enabled" ? "disabled" : "enabled" }) },
                w.status === "enabled" ? "Turn off" : "Turn on",
              ),
              " ",
              h("button", { type: "button", class: "rotate", onclick: () => act("POST", `/v1/webhooks/${w.id}/rotate-secret`) }, "New secret"),
              " ",
              h("button", { type: "button", class: "deliveries", onclick: () => showDeliveries(w) }, "Deliveries"),
              " ",
              h("button", { type: "button", class: "remove", onclick: () => act("DELETE", `/v1/webhooks/${w.id}`) }, "Remove"),
            ),
          ),
        ),
      );
    } catch (error) {
      message.textContent = problemText(error);
    }
  };
  const url = h("input", { id: "webhook-url", type: "url", required: true, placeholder: "https://hooks.example.com/artmarket" });
  const boxes = TYPES.map((t) => h("label", { class: "check" }, h("input", { type: "checkbox", value: t, checked: t.startsWith("lot.") }), ` ${t}`));
  const form = h(
    "form",
    {
      id: "webhook-create",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const types = boxes
          .map((b) => b.querySelector("input") as HTMLInputElement)
          .filter((i) => i.checked)
          .map((i) => i.value);
        await act("POST", "/v1/webhooks", { url: url.value.trim(), event_types: types });
      },
    },
    h("label", {}, "URL ", url),
    h("div", {}, boxes),
    h("button", { type: "submit" }, "Add destination"),
  );
  main().replaceChildren(
    h("h1", {}, "Webhooks"),
    h(
      "p",
      {},
      "Each event about what you follow is POSTed to your destinations, signed per Standard Webhooks, retried for about a day and a half. ",
      h("a", { href: "/docs" }, "API reference"),
    ),
    form,
    shown,
    message,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", id: "webhooks" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["URL", "Events", "Status", ""].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        rows,
      ),
    ),
    deliveries,
  );
  await refresh();
}
