#!/usr/bin/env bun
/**
 * bench/api what-ifs: measures suggested index and query changes for the slow cases before
 * anyone makes them, on a scratch copy (the market is only read):
 *
 *   bun bench/lib/api-whatif.ts [--data /tmp/artmarket-large] [--urls 40] [--seed 1986] [--only artists|artworks]
 *
 * The artists table (and the artworks table, with its category indexes) is copied into a scratch
 * database in a temp dir with the same schema and indexes and ANALYZE'd as the seed does; then
 * the SQL the service runs for the first --urls URLs of the slow cases (built by the modules'
 * own exported SQL builders) is timed on the copy as it is, and with each change:
 *
 * (These measured the changes before they were made; the artist list now plans each request
 * itself, and "current" below is its SQL with that plan left out: SQLite's own choice.)
 *
 *   artists (screener, screener mix)
 *     current        the page (all columns, ORDER BY … LIMIT) and the count, as listSql writes them
 *     +nat_cap       an index (nationality, market_cap)
 *     ids-first      the page as ids only (the sort carries the key and the id, not bio/long_bio),
 *                    then the rows by id, as artworks and lots do
 *     sort index walked  the page with INDEXED BY the sort's index (what an adaptive plan would
 *                    pick for a broad filter, as lots' narrowRangeIndex does); filter index forced:
 *                    the first range/IN filter's index (a narrow filter read first, then sorted);
 *                    adaptive: the best of these and the current page plan for each URL (an ideal
 *                    probe, its cost left out: lots' probe is a count on an index, bounded)
 *     count capped   count(*) over at most 10,001 rows (a total reported as "more than 10,000")
 *   artworks (by category)
 *     current        listStatements' page and count
 *     +covering      indexes with the filter columns after the sort key: (category_id,
 *                    creation_year, estimate_usd), (category_id, estimate_usd, creation_year),
 *                    (category_id, day_last_sold, creation_year, estimate_usd); the page as the
 *                    planner picks, and with the sort's covering index forced (INDEXED BY)
 *     count capped   count(*) over at most 10,001 rows
 *
 * Times are SQL only (prepare, all, finalize), medians and p95 over the URLs, the second of two runs.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { marketDbPath } from "../../src/db/connection";
import { ARTIST_LIST, SORTS, type SortBy } from "../../src/serve/modules/artists/fields";
import { listSql } from "../../src/serve/modules/artists/service";
import { ARTWORK_LIST } from "../../src/serve/modules/artworks/fields";
import { listStatements } from "../../src/serve/modules/artworks/service";
import type { SqlFragment } from "../../src/serve/query/grammar";
import { buildCases } from "./api-cases";
import { looseList } from "./api-routes";
import { fmt, median, percentileSorted, table } from "./stats";

function flag(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : def;
}

const dataDir = resolve(flag("data", "/tmp/artmarket-large"));
const perCase = Number(flag("urls", "40"));
const seed = Number(flag("seed", "1986"));
const only = flag("only", "");
const log = (s: string) => process.stderr.write(`${s}\n`);

type Bind = SqlFragment["params"][number];

function time(db: Database, f: SqlFragment): { ms: number; rows: unknown[] } {
  let rows: unknown[] = [];
  let ms = 0;
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    const st = db.prepare(f.sql);
    try {
      rows = st.all(...(f.params as Bind[]));
    } finally {
      st.finalize();
    }
    ms = performance.now() - t0;
  }
  return { ms, rows };
}

function plan(db: Database, f: SqlFragment): string {
  const st = db.prepare(`EXPLAIN QUERY PLAN ${f.sql}`);
  try {
    return (st.all(...(f.params as Bind[])) as { detail: string }[]).map((r) => r.detail).join(" | ");
  } finally {
    st.finalize();
  }
}

/** Copies `table` (schema, rows, the indexes named by `keep`) from the attached market `m` into main, then ANALYZE. */
function copyTable(db: Database, table: string, keep: (name: string) => boolean): void {
  const t0 = performance.now();
  const ddl = db.query<{ sql: string }, [string]>("SELECT sql FROM m.sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql;
  db.run(ddl);
  db.run(`INSERT INTO main.${table} SELECT * FROM m.${table}`);
  const indexes = db
    .query<{ name: string; sql: string }, [string]>("SELECT name, sql FROM m.sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .all(table)
    .filter((i) => keep(i.name));
  for (const i of indexes) db.run(i.sql);
  db.run(`ANALYZE main.${table}`);
  log(`copied ${table} with ${indexes.length} indexes in ${fmt((performance.now() - t0) / 1000, 1)} s`);
}

interface Row {
  variant: string;
  ms: number[];
  plans: Set<string>;
}

function report(title: string, rows: Row[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(
    `${table(
      ["variant", "median ms", "p95 ms", "max ms"],
      rows.map((r) => {
        const s = Float64Array.from(r.ms).sort();
        return [r.variant, fmt(median(r.ms)), fmt(percentileSorted(s, 95)), fmt(s[s.length - 1] ?? Number.NaN)];
      }),
    )}\n`,
  );
  for (const r of rows) for (const p of r.plans) process.stdout.write(`  ${r.variant}: ${p}\n`);
}

const market = new Database(marketDbPath(dataDir), { readonly: true });
const { cases } = buildCases(market, { n: 200, seed, follows: 0 });
const dir = mkdtempSync(join(tmpdir(), "artmarket-api-whatif-"));
const db = new Database(join(dir, "scratch.db"), { create: true, strict: true });
try {
  db.run("PRAGMA journal_mode = OFF");
  db.run("PRAGMA synchronous = OFF");
  db.run("PRAGMA cache_size = -262144");
  db.run("PRAGMA temp_store = MEMORY");
  db.run("ATTACH DATABASE ? AS m", [marketDbPath(dataDir)]);
  const origin = "http://x";

  if (only !== "artworks") {
    copyTable(db, "artists", () => true);
    // The index that gives a sort its order (src/db/market-indexes/artists.ts), to walk it with INDEXED BY.
    const sortIndex = (sort: SortBy, dir: string) => {
      if (sort === "NAME") return "artists_name_nocase";
      const col = SORTS[sort].column.replace(/^a\./, "");
      return dir === "asc" && SORTS[sort].nullable ? `artists_${col}_nulls_last` : `artists_${col}`;
    };
    for (const name of ["artists.screener", "artists.screener-mix"]) {
      const urls = cases
        .find((c) => c.name === name)!
        .urls.slice(0, perCase)
        .filter((u) => !u.path.includes("q="));
      const names = [
        "current",
        "+nat_cap",
        "ids-first",
        "ids-first +nat_cap",
        "sort index walked (INDEXED BY)",
        "filter index forced (INDEXED BY)",
        "adaptive (the best page plan per URL)",
        "count capped at 10,001",
        "+nat_cap, count capped",
      ];
      const rows: Row[] = names.map((variant) => ({ variant, ms: [], plans: new Set() }));
      const add = (variant: string, ms: number, planText?: string) => {
        const r = rows.find((x) => x.variant === variant)!;
        r.ms.push(ms);
        if (planText) r.plans.add(planText);
      };
      const run = (withIndex: boolean) => {
        for (const u of urls) {
          const q = looseList(ARTIST_LIST, new URL(origin + u.path).searchParams);
          // SQLite's own plan: the list's per-request plan (INDEXED BY, since ede55de) left out
          const planned = listSql(market, q, null);
          const strip = (sql: string) => sql.replace(/ INDEXED BY \w+/g, "");
          const s = { ...planned, sql: strip(planned.sql), count: strip(planned.count) };
          const page = { sql: s.sql, params: s.params };
          const count = { sql: s.count, params: s.params.slice(0, -2) };
          const capped = { sql: s.count.replace(/^SELECT count\(\*\) AS n FROM ([\s\S]*)$/, "SELECT count(*) AS n FROM (SELECT 1 FROM $1 LIMIT 10001)"), params: count.params };
          const idsPage = { sql: s.sql.replace(/^SELECT [\s\S]*? FROM artists a /, "SELECT a.id FROM artists a "), params: s.params };
          const full = time(db, page);
          const needCount = full.rows.length === q.limit;
          const c = needCount ? time(db, count).ms : 0;
          const k = needCount ? time(db, capped).ms : 0;
          const ids = time(db, idsPage);
          const idList = (ids.rows as { id: number }[]).map((r) => r.id);
          const hydrate = time(db, { sql: s.sql.replace(/ WHERE [\s\S]*$/, " WHERE a.id IN (SELECT value FROM json_each(?))"), params: [JSON.stringify(idList)] });
          add(withIndex ? "+nat_cap" : "current", full.ms + c, `${u.variant}: page: ${plan(db, page)}; count: ${plan(db, count)}`);
          add(withIndex ? "ids-first +nat_cap" : "ids-first", ids.ms + hydrate.ms + c, `${u.variant}: ids: ${plan(db, idsPage)}`);
          if (withIndex) {
            add("+nat_cap, count capped", full.ms + k);
          } else {
            add("count capped at 10,001", full.ms + k);
            const sort = (q.params.sort_by as SortBy) ?? "MARKET_CAP";
            const dir = (q.params.sort_dir as string) ?? SORTS[sort].defaultDir;
            const walked = { sql: s.sql.replace("FROM artists a WHERE", `FROM artists a INDEXED BY ${sortIndex(sort, dir)} WHERE`), params: s.params };
            const w = time(db, walked).ms;
            add("sort index walked (INDEXED BY)", w + c, `${u.variant}: ${plan(db, walked)}`);
            // The filter's own index forced (a narrow range read first, then sorted).
            const range = q.filters.find((f) => f.suffix === "__gte" || f.suffix === "__lte" || f.suffix === "__in");
            let r = Number.POSITIVE_INFINITY;
            if (range) {
              const forced = { sql: s.sql.replace("FROM artists a WHERE", `FROM artists a INDEXED BY artists_${range.field} WHERE`), params: s.params };
              r = time(db, forced).ms;
              add("filter index forced (INDEXED BY)", r + c, `${u.variant}: ${plan(db, forced)}`);
            }
            add("adaptive (the best page plan per URL)", Math.min(w, full.ms, r) + c);
          }
        }
      };
      run(false);
      db.run("CREATE INDEX artists_nat_cap ON artists (nationality, market_cap)");
      db.run("ANALYZE main.artists");
      run(true);
      db.run("DROP INDEX artists_nat_cap");
      report(`${name}: SQL per request (page + count when the page is full), ${urls.length} URLs`, rows);
    }
  }

  if (only !== "artists") {
    copyTable(db, "artworks", (n) => n.startsWith("artworks_category") || n === "artworks_estimate" || n === "artworks_last_sold");
    const urls = cases.find((c) => c.name === "artworks.by-category")!.urls.slice(0, perCase);
    const names = [
      "current: page",
      "current: count",
      "current: page + count",
      "current: count capped at 10,001",
      "+covering: page (planner's choice)",
      "+covering: page, sort index forced",
      "+covering: count",
      "+covering: count capped at 10,001",
      "+covering, forced: page + count",
      "+covering, forced: page + capped count",
    ];
    const rows: Row[] = names.map((variant) => ({ variant, ms: [], plans: new Set() }));
    const add = (name: string, ms: number, planText?: string) => {
      const r = rows.find((x) => x.variant === name)!;
      r.ms.push(ms);
      if (planText) r.plans.add(planText);
    };
    // The sort's own covering index, as lots' adaptive planner forces one with INDEXED BY.
    const sortIndex: Record<string, string> = {
      "sort_by_price=desc": "artworks_cat_est_year",
      "sort=CREATION_YEAR_DESC": "artworks_cat_year_est",
      "sort=SALE_DATE_DESC": "artworks_cat_sold_year_est",
    };
    const statements = (path: string) => {
      const q = looseList(ARTWORK_LIST, new URL(origin + path).searchParams);
      const { page, count } = listStatements(q);
      const where = count.sql.replace(/^[\s\S]*? WHERE /, "");
      const capped = { sql: `SELECT count(*) AS n FROM (SELECT 1 FROM artworks a WHERE ${where} LIMIT 10001)`, params: count.params };
      return { page, count, capped };
    };
    for (const u of urls) {
      const { page, count, capped } = statements(u.path);
      const p = time(db, page).ms;
      const c = time(db, count).ms;
      add("current: page", p, `${u.variant}: ${plan(db, page)}`);
      add("current: count", c, plan(db, count));
      add("current: page + count", p + c);
      add("current: count capped at 10,001", time(db, capped).ms);
    }
    const extra = [
      "CREATE INDEX artworks_cat_year_est ON artworks (category_id, creation_year, estimate_usd)",
      "CREATE INDEX artworks_cat_est_year ON artworks (category_id, estimate_usd, creation_year)",
      "CREATE INDEX artworks_cat_sold_year_est ON artworks (category_id, day_last_sold, creation_year, estimate_usd)",
    ];
    const t0 = performance.now();
    for (const sql of extra) db.run(sql);
    db.run("ANALYZE main.artworks");
    log(`covering indexes built in ${fmt((performance.now() - t0) / 1000, 1)} s`);
    for (const u of urls) {
      const { page, count, capped } = statements(u.path);
      const forced = { sql: page.sql.replace("FROM artworks a WHERE", `FROM artworks a INDEXED BY ${sortIndex[u.variant]} WHERE`), params: page.params };
      const p = time(db, page).ms;
      const f = time(db, forced).ms;
      const c = time(db, count).ms;
      const k = time(db, capped).ms;
      add("+covering: page (planner's choice)", p, `${u.variant}: ${plan(db, page)}`);
      add("+covering: page, sort index forced", f, `${u.variant}: ${plan(db, forced)}`);
      add("+covering: count", c, plan(db, count));
      add("+covering: count capped at 10,001", k, plan(db, capped));
      add("+covering, forced: page + count", f + c);
      add("+covering, forced: page + capped count", f + k);
    }
    report(`artworks.by-category: SQL per request, ${urls.length} URLs`, rows);
  }
} finally {
  db.close();
  market.close();
  rmSync(dir, { recursive: true, force: true });
}
