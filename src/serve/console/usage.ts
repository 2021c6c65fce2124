// @ts-nocheck: browser code; tests/browser/console-types.test.ts type-checks it with the DOM library (the repository's tsconfig has none)
/**
 * #/usage?range=…: the caller's Data Units by day (a bar chart, one bar a day, and a table) and by
 * endpoint, over the last 7, 30 or 90 days or the current period, next to the plan's windows
 * (period, UTC day, calendar month; the enterprise API pool's as well). GET /v1/usage costs 0 DU.
 */
import { type Usage, call, meter } from "./api";
import { type ChartElement, barChart } from "./charts";
import { choice, day, field, h, int, main, slot } from "./ui";

const RANGES = [
  ["7", "last 7 days"],
  ["30", "last 30 days"],
  ["90", "last 90 days"],
  ["period", "this period"],
] as const;

const DAY_MS = 86_400_000;

/** Each day from..to (YYYY-MM-DD, UTC), both included. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** One window: what is used of its allowance, as a bar and in numbers. */
function windowRow(label: string, used: number, limit: number, note = ""): HTMLElement {
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, label),
    h("td", { class: "num" }, int(Math.round(used * 100) / 100)),
    h("td", { class: "num" }, int(limit)),
    h("td", {}, h("progress", { max: limit, value: Math.min(used, limit), "aria-label": `${label}: ${int(used)} of ${int(limit)} DU` })),
    h("td", { class: "sub" }, `${limit ? `${((used / limit) * 100).toFixed(used && used / limit < 0.001 ? 3 : 1)} % used` : ""}${note ? `; ${note}` : ""}`),
  );
}

/** The pools' windows of one usage answer: the main pool, and the API pool where the plan has one. */
function windows(u: Usage): HTMLElement {
  const pools: [string, string][] = [["", "All calls"]];
  if (u.api_du_limit !== undefined) pools.push(["api_", "API pool"]);
  const get = (prefix: string, name: string) => (u as unknown as Record<string, number>)[`${prefix}${name}`]!;
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "grid", id: "usage-windows" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Window", "DU used", "Allowance", "", ""].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      pools.map(([p, name]) =>
        h(
          "tbody",
          {},
          pools.length > 1 && h("tr", {}, h("th", { colspan: 5, scope: "rowgroup", class: "pool" }, name)),
          windowRow(
            `Period ${u.period_start} – ${u.period_end}`,
            get(p, "du_limit") - get(p, "du_remaining"),
            get(p, "du_limit"),
            `projected at its end: ${int(get(p, "projected_eop"))}`,
          ),
          windowRow("Today (UTC)", get(p, "daily_du_consumed"), get(p, "daily_du_limit")),
          windowRow("This month", get(p, "monthly_du_consumed"), get(p, "monthly_du_limit")),
        ),
      ),
    ),
  );
}

export function usagePage(params: URLSearchParams): void {
  const range = params.get("range") ?? "30";
  const today = new Date().toISOString().slice(0, 10);
  // "period": no from, the API's default (the start of the current period)
  const from = range === "period" ? undefined : new Date(Date.parse(`${today}T00:00:00Z`) - (Number(range) - 1) * DAY_MS).toISOString().slice(0, 10);
  const form = h(
    "form",
    {
      class: "row",
      id: "usage-range",
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = `#/usage?range=${(form.elements.namedItem("range") as HTMLSelectElement).value}`;
      },
    },
    field("Range", choice("range", RANGES, range)),
    h("button", { type: "submit" }, "Show"),
  );
  const head = h("div", { id: "usage-head" });
  const chart: ChartElement = h("div", { class: "chart", id: "usage-chart", role: "img", "aria-label": "Data Units per day" });
  const chartSlot = h("div", {}, chart);
  const days = h("div", { id: "usage-days" });
  const endpoints = h("div", { id: "usage-endpoints" });
  const limits = h("div", { id: "usage-limits" });
  main().replaceChildren(
    h("h1", {}, "Usage"),
    form,
    head,
    h("section", {}, h("h2", {}, "Data Units per day"), chartSlot),
    h("section", {}, h("h2", {}, "The plan's windows"), limits),
    h("section", {}, h("h2", {}, "By endpoint"), endpoints),
    h("section", {}, h("h2", {}, "Days with calls"), days),
  );
  const byDay = call("/v1/usage", { group_by: "day", from });
  const byEndpoint = call("/v1/usage", { group_by: "endpoint", from });
  slot(head, "Usage", async () => {
    const u = await byDay;
    return h(
      "p",
      { id: "usage-total" },
      `${u.from} – ${u.to}: `,
      h("b", { "data-value": u.du_consumed }, `${int(u.du_consumed)} DU`),
      ` in ${int((u.breakdown ?? []).reduce((n, b) => n + b.requests, 0))} calls on the ${u.plan} plan.`,
    );
  });
  (async () => {
    try {
      const u = await byDay;
      const used = new Map((u.breakdown ?? []).map((b) => [b.label, b.du_consumed]));
      barChart(
        chart,
        daysBetween(u.from, u.to).map((d) => ({ time: d, value: used.get(d) ?? 0 })),
        "DU",
      );
      chart.dataset.from = u.from;
      chart.dataset.to = u.to;
    } catch {
      // the head says what failed
      chartSlot.replaceChildren();
    }
  })();
  slot(limits, "The plan's windows", async () => {
    const u = await byDay;
    const policy = meter.policy
      ? [...meter.policy.matchAll(/"(\w+)";q=(\d+)/g)].map((m) => `${int(Number(m[2]))} requests a ${m[1] === "sec" ? "second" : m[1] === "min" ? "minute" : m[1]}`)
      : [];
    return [windows(u), policy.length > 0 && h("p", { class: "sub" }, `Request rate limits: ${policy.join(", ")}.`)];
  });
  slot(days, "Usage by day", async () => {
    const u = await byDay;
    const rows = [...(u.breakdown ?? [])].reverse();
    if (!rows.length) return h("p", {}, "No calls in this range.");
    return h(
      "table",
      { class: "grid small", id: "usage-days-table" },
      h("tr", {}, h("th", { scope: "col" }, "Day"), h("th", { scope: "col" }, "Calls"), h("th", { scope: "col" }, "DU")),
      rows.map((b) => h("tr", {}, h("td", { class: "num" }, day(b.label)), h("td", { class: "num" }, int(b.requests)), h("td", { class: "num" }, int(b.du_consumed)))),
    );
  });
  slot(endpoints, "Usage by endpoint", async () => {
    const u = await byEndpoint;
    const rows = u.breakdown ?? [];
    if (!rows.length) return h("p", {}, "No calls in this range.");
    const max = Math.max(1, ...rows.map((b) => b.du_consumed));
    return h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "grid", id: "usage-endpoints-table" },
        h("tr", {}, h("th", { scope: "col" }, "Endpoint"), h("th", { scope: "col" }, "Calls"), h("th", { scope: "col" }, "DU"), h("th", { scope: "col" }, "")),
        rows.map((b) =>
          h(
            "tr",
            { "data-label": b.label },
            h("td", {}, h("code", {}, b.label)),
            h("td", { class: "num" }, int(b.requests)),
            h("td", { class: "num" }, int(b.du_consumed)),
            h("td", { class: "barcell" }, h("span", { class: "bar up", style: { width: `${(b.du_consumed / max) * 100}%` } })),
          ),
        ),
      ),
    );
  });
}
