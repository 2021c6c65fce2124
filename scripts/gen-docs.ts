#!/usr/bin/env bun
/**
 * Writes docs/du.md, the Data Unit price table, from the prices the endpoints declare
 * (PRICES in src/serve/app.ts, one row per declaration). tests/contract/docs.test.ts fails when the file on disk is not
 * what this script would write now.
 *
 *   bun scripts/gen-docs.ts           write docs/du.md
 *   bun scripts/gen-docs.ts --check   exit 1 (writing nothing) when docs/du.md is out of date
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { costOf, formatDu, type Price } from "../src/serve/http/pricing";
import { PRICES } from "../src/serve/app";

export const DU_DOC_PATH = join(import.meta.dir, "..", "docs", "du.md");

/** "none" for no per-record price, as the spec's table writes it. */
const perRecord = (p: Price) => (p.perRecord === 0 ? "none" : formatDu(p.perRecord));

function example(route: string, records: number): string {
  const p = PRICES[route];
  if (!p) throw new Error(`gen-docs: the example route ${route} has no price`);
  return `\`${route}\` returning ${records} records costs ${formatDu(p.base)} + ${formatDu(p.perRecord)} × ${records} = ${formatDu(costOf(p, records))} DU`;
}

/** The whole of docs/du.md. */
export function renderDuDoc(): string {
  const rows = Object.entries(PRICES).map(([route, p]) => `| ${route} | ${formatDu(p.base)} | ${perRecord(p)} | ${p.source} |`);
  return [
    "# Data Unit prices",
    "",
    "<!-- Generated from the endpoints' declarations (`price`, src/serve/modules/*/index.ts) by `bun scripts/gen-docs.ts`: edit a price there, then run the script. -->",
    "",
    "Cost of a call = base + per record × records returned, where records returned counts the records",
    "actually in the response.",
    "",
    "- Only successful authenticated calls cost DU; a 4xx or 5xx response costs none, and so does a call",
    "  made without a key to an endpoint that allows it.",
    "- A call that returns no records still costs its base.",
    "- `HEAD` on a GET runs the same query and costs 0 DU: it answers `X-Service-DataUnits: 0`, the GET's cost",
    "  in `X-Service-DataUnits-Quote`, and the GET's other headers (Remaining unchanged by it). Like the other",
    "  free calls, it counts as a request of 0 DU in `GET /v1/usage` (endpoint `HEAD /v1/…`).",
    "- Market reads (GET on artists, artworks, lots, sales, charts and reference lists) carry a weak `ETag`;",
    "  the same request with `If-None-Match` holding it (or `*`) answers 304, no body, at the base price only,",
    `  no per-record part: \`GET /v1/artists\` answered 304 costs ${formatDu(PRICES["GET /v1/artists"]!.base)} DU. Collectables, usage, plans, followed lists,`,
    "  recommendations and shares carry no ETag.",
    "- The cost of each call is in the `X-Service-DataUnits` response header; `GET /v1/usage` reports",
    "  consumption.",
    `- Examples: ${example("GET /v1/artists", 20)}; ${example("GET /v1/artworks", 500)}.`,
    "",
    "Source `spec`: the price is in the service specification's DU table or follows its rules (follow,",
    "unfollow, share, shared-token retrieval, usage and healthcheck cost 0). Source `contract`: the",
    "specification does not price the endpoint, and the price follows this service's rule for its kind:",
    "detail reads 1, analytics reads 10, search by image 10 + 1.5 per result, collectable reads 1 + 1 per",
    "record, writes 1.",
    "",
    "| Endpoint | Base | Per record | Source |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.main) {
  const text = renderDuDoc();
  const where = relative(process.cwd(), DU_DOC_PATH) || DU_DOC_PATH;
  const current = existsSync(DU_DOC_PATH) ? readFileSync(DU_DOC_PATH, "utf8") : null;
  if (process.argv.includes("--check")) {
    if (current !== text) {
      process.stderr.write(`${where} is out of date: run bun scripts/gen-docs.ts\n`);
      process.exit(1);
    }
    process.stdout.write(`${where} is up to date\n`);
  } else if (current === text) {
    process.stdout.write(`${where} is up to date\n`);
  } else {
    mkdirSync(dirname(DU_DOC_PATH), { recursive: true });
    writeFileSync(DU_DOC_PATH, text);
    process.stdout.write(`wrote ${where} (${Object.keys(PRICES).length} endpoints)\n`);
  }
}
