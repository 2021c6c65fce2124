#!/usr/bin/env bun
/**
 * artmarket command line: serve, seed, import, keys, notices. The same entry point is compiled
 * into dist/artmarket.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isKeyId, KeyError } from "./serve/accounts/keys";
import type { AccountStore } from "./serve/accounts/store";
import { withAccountStore } from "./serve/accounts/open";
import type { Cluster } from "./serve/cluster/supervisor";
import type { ReloadStatus } from "./serve/cluster/swap";
import { jsonLogLine, jsonStderr, type LogLevel } from "./serve/http/log-lines";
import { parseCommandLine, UsageError } from "./platform/cli-spec";
import {
  accountStoreFrom,
  ConfigError,
  DEFAULT_SEED,
  dataDirFrom,
  demoMarketFrom,
  intFlag,
  publicUrlFrom,
  SCALES,
  serveConfig,
  stringFlag,
  type Scale,
  SERVE_DEFAULTS,
} from "./platform/config";
import { BUILD_ID } from "./platform/native";
import { marketDbPath } from "./db/connection";
import type { SeedOptions } from "./pipeline/seed";
import { DataDirHeld, holdDataDir, type ServeLock, serverHolding } from "./platform/serve-lock";
import { isIsoDate } from "./market/time";
import { VERSION } from "./platform/version";

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Runs `fn` over the account store the command names (`--account-store`, else account.db). */
function withAccount<T>(dataDir: string, flags: Record<string, string | true>, fn: (store: AccountStore) => T | Promise<T>): Promise<T> {
  return withAccountStore(dataDir, accountStoreFrom(flags), fn);
}

function parseScale(flags: Record<string, string | true>): Scale {
  const scale = stringFlag(flags, "scale");
  if (!scale) throw new ConfigError(`seed needs --scale (${SCALES.join("|")})`);
  if (!(SCALES as readonly string[]).includes(scale)) throw new ConfigError(`--scale must be one of ${SCALES.join(", ")}, got "${scale}"`);
  return scale as Scale;
}

/** What `serve` seeds on an empty data directory: the demo market (`small`, images embedded; demoMarketFrom). */
export function firstStartSeed(dataDir: string, env: Record<string, string | undefined> = process.env): SeedOptions {
  return { dataDir, ...demoMarketFrom(env), seed: DEFAULT_SEED };
}

/**
 * Where the start-up lines send a person next: the console and the docs, at --public-url when it
 * is set, else at the address listened on (a wildcard address as loopback).
 */
export function startUrls(config: { host: string; publicUrl: string | null }, port: number): { console: string; docs: string } {
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host === "::" ? "::1" : config.host;
  const base = config.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return { console: `${base}/console`, docs: `${base}/docs` };
}

async function serve(flags: Record<string, string | true>): Promise<void> {
  const config = serveConfig(flags);
  const logFormat = config.logFormat ?? "json";
  // with the JSON log, every line on stderr is a JSON object from here on: the seed's progress,
  // these messages, whatever a library prints (src/serve/http/log-lines.ts)
  const write = logFormat === "json" ? jsonStderr() : (text: string) => void process.stderr.write(text);
  const say = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => write(logFormat === "json" ? jsonLogLine(level, msg, fields) : `${msg}\n`);
  mkdirSync(config.dataDir, { recursive: true });
  let lock: ServeLock;
  try {
    lock = holdDataDir(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirHeld) throw new ConfigError(err.message);
    throw err;
  }
  const firstStart = !existsSync(marketDbPath(config.dataDir));
  if (firstStart) {
    const { formatSummary, seedMarket } = await import("./pipeline/seed");
    const summary = await seedMarket(firstStartSeed(config.dataDir));
    say("info", formatSummary(summary));
  }
  // --advance feeds the market from its latent truth, which only a seeded market has (src/serve/cluster/advance.ts)
  const { TRUTH_FILE } = await import("./serve/cluster/advance");
  if (config.advanceMs && !existsSync(join(config.dataDir, TRUTH_FILE))) {
    lock.release();
    throw new ConfigError(
      `--advance needs the latent truth of a seeded market (${TRUTH_FILE}), and ${config.dataDir} has none (an imported market has none): seed the market, or serve without --advance`,
    );
  }
  // the first start's key, made before the workers start (they read it from the store); with
  // PostgreSQL, of the nodes that start together on an empty store one makes it
  const created = await withAccountStore(config.dataDir, config.accountStore, (store) => store.createFirstUser("enterprise", "first enterprise user"));
  const { ClusterStartError, startCluster } = await import("./serve/cluster/supervisor");
  let cluster: Cluster;
  try {
    cluster = await startCluster(config, { workers: config.workers ?? 1, logFormat, write });
  } catch (err) {
    lock.release();
    if (err instanceof ClusterStartError) throw new ConfigError(err.message);
    throw err;
  }
  out(`listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${cluster.port}`);
  const next = startUrls(config, cluster.port);
  out(`console: ${next.console}`);
  out(`docs: ${next.docs}`);
  if (created) {
    out(`created user ${created.userId} on plan enterprise; its API key (shown once, keep it secret):`);
    out(created.key);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timeoutS = config.shutdownTimeoutS ?? 30;
    const delayS = config.drainDelayS ?? 5;
    if (delayS > 0)
      say("info", `${signal}: draining; /readyz answers 503, requests are served ${delayS} s more; ${cluster.inFlight()} request(s) in flight`, {
        signal,
        in_flight: cluster.inFlight(),
      });
    const { unfinished } = await cluster.drain(
      timeoutS * 1000,
      (inFlight) => {
        say("info", `${signal}: stopping; ${inFlight} request(s) in flight (up to ${timeoutS} s), ${cluster.workers} worker(s)`, { signal, in_flight: inFlight });
      },
      delayS * 1000,
    );
    lock.release();
    if (unfinished) say("warn", `stopped; ${unfinished} request(s) cut at the shutdown timeout`, { unfinished });
    else say("info", "stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // `artmarket reload`: the newest published snapshot now (src/serve/cluster/swap.ts logs a swap or a refusal)
  process.on("SIGHUP", () => {
    if (stopping) return;
    void cluster.reload().then((r) => {
      if (r.outcome === "ok" && !r.swapped) say("info", `SIGHUP: already serving the newest snapshot, ${r.snapshot}`, { snapshot: r.snapshot });
    });
  });
}

/** `artmarket reload`: SIGHUP to the server holding the data directory, then its answer (exit 0, 1 or 2). */
async function reload(flags: Record<string, string | true>): Promise<number> {
  const dataDir = dataDirFrom(flags);
  const timeoutS = intFlag(flags, "timeout", 1, 86_400) ?? 600;
  const pid = serverHolding(dataDir);
  if (pid === null) {
    process.stderr.write(`artmarket reload: no server holds ${dataDir}\n`);
    return 2;
  }
  const { RELOAD_STATUS } = await import("./serve/cluster/swap");
  const sent = Date.now();
  process.kill(pid, "SIGHUP");
  const statusPath = join(dataDir, RELOAD_STATUS);
  while (Date.now() - sent < timeoutS * 1000) {
    await Bun.sleep(50);
    let status: ReloadStatus | null = null;
    try {
      status = JSON.parse(readFileSync(statusPath, "utf8")) as ReloadStatus;
    } catch {
      status = null; // not written yet
    }
    if (status && status.pid === pid && status.started_at >= sent) {
      if (status.outcome === "ok") {
        out(status.swapped ? `serving snapshot ${status.snapshot} (swapped in now)` : `serving snapshot ${status.snapshot} (already the newest)`);
        return 0;
      }
      process.stderr.write(`artmarket reload: the server refused the published snapshot: ${status.reason ?? "no reason given"}\nit still serves snapshot ${status.snapshot}\n`);
      return 1;
    }
    if (serverHolding(dataDir) !== pid) {
      process.stderr.write(`artmarket reload: the server (pid ${pid}) stopped before it answered\n`);
      return 2;
    }
  }
  process.stderr.write(`artmarket reload: no answer from the server (pid ${pid}) in ${timeoutS} s\n`);
  return 1;
}

async function keys(positionals: string[], flags: Record<string, string | true>): Promise<void> {
  const dataDir = dataDirFrom(flags);
  const [action, arg] = positionals;
  if (action === "create") {
    const plan = stringFlag(flags, "plan");
    if (!plan) throw new ConfigError("keys create needs --plan SLUG");
    const name = stringFlag(flags, "name");
    const created = await withAccount(dataDir, flags, async (store) => {
      const made = await store.createUserWithKey(plan, name);
      store.audit({
        ts: Date.now(),
        actorUserId: null,
        actorKeyId: null,
        via: "cli",
        action: "key.created",
        targetKind: "key",
        targetId: made.keyId,
        address: null,
        detail: { user_id: made.userId, plan },
      });
      return made;
    });
    out(`created user ${created.userId}, key id ${created.keyId} (${created.kid}) on plan ${created.plan}; the key is shown once:`);
    out(created.key);
  } else if (action === "list") {
    const rows = await withAccount(dataDir, flags, (store) => store.listKeys());
    if (flags.json) return out(JSON.stringify(rows, null, 2));
    out(["id", "kid", "user", "plan", "name", "created", "revoked"].join("\t"));
    for (const r of rows) out([r.id, r.kid, r.user_id, r.plan, r.name, r.created_at, r.revoked_at ?? "-"].join("\t"));
  } else if (action === "revoke") {
    if (!arg) throw new ConfigError("keys revoke needs a key ID (the number from `keys list`, or the kid)");
    const done = await withAccount(dataDir, flags, (store) => {
      const row = isKeyId(arg) ? null : store.findKeyByKid(arg);
      const revoked = store.revokeKey(arg);
      if (revoked) {
        const keyId = row?.key_id ?? Number(arg);
        store.audit({ ts: Date.now(), actorUserId: null, actorKeyId: null, via: "cli", action: "key.revoked", targetKind: "key", targetId: keyId, address: null, detail: {} });
      }
      return revoked;
    });
    if (!done) throw new ConfigError(`no active key with id ${arg}`);
    out(`revoked key ${arg}`);
  } else if (action === "usage") {
    const since = stringFlag(flags, "since");
    if (since !== undefined && !isIsoDate(since)) throw new ConfigError(`--since must be a date (YYYY-MM-DD), got "${since}"`);
    const rows = await withAccount(dataDir, flags, (store) => store.usageByKey(since));
    if (flags.json) return out(JSON.stringify(rows, null, 2));
    const table = [
      ["user", "name", "plan", "key", "kid", "requests", "du", "first day", "last day"],
      ...rows.map((r) =>
        [r.user_id, r.user_name, r.plan, r.revoked ? `${r.key_id} (revoked)` : r.key_id, r.kid, r.requests, r.du, r.first_day ?? "-", r.last_day ?? "-"].map(String),
      ),
      ["total", "", "", "", "", String(rows.reduce((n, r) => n + r.requests, 0)), String(Math.round(rows.reduce((n, r) => n + r.du, 0) * 1e6) / 1e6), "", ""],
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    const numeric = new Set([0, 3, 5, 6]);
    if (since !== undefined) out(`usage from ${since} on (UTC days)`);
    for (const row of table)
      out(
        row
          .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
          .join("  ")
          .trimEnd(),
      );
  } else {
    throw new ConfigError("keys needs one of: create, list, revoke, usage");
  }
}

/** `artmarket users`: users who sign in to the account area (docs/accounts.md). */
async function users(positionals: string[], flags: Record<string, string | true>): Promise<void> {
  const dataDir = dataDirFrom(flags);
  const [action, arg] = positionals;
  const { hashPassword, PASSWORD_LENGTH } = await import("./serve/accounts/sessions");
  const { passwordLink } = await import("./serve/modules/account/service");
  const cliAudit = (store: AccountStore, action: string, targetId: number, detail: Record<string, unknown>) =>
    store.audit({ ts: Date.now(), actorUserId: null, actorKeyId: null, via: "cli", action, targetKind: "user", targetId, address: null, detail });
  if (action === "create") {
    const email = stringFlag(flags, "email");
    const plan = stringFlag(flags, "plan");
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError("users create needs --email E (an email address)");
    if (!plan) throw new ConfigError("users create needs --plan SLUG");
    const role = flags.admin === true ? "admin" : "member";
    const publicUrl = publicUrlFrom(flags) ?? `http://${SERVE_DEFAULTS.host}:${SERVE_DEFAULTS.port}`;
    let password: string | null = null;
    if (flags["password-stdin"] === true) {
      password = (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
      if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
        throw new ConfigError(`the password must have ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`);
      }
    }
    const hash = password === null ? null : await hashPassword(password);
    const made = await withAccount(dataDir, flags, (store) => {
      const id = store.createUser({ email, plan, role, name: stringFlag(flags, "name") });
      cliAudit(store, "user.created", id, { email: email.toLowerCase(), plan, role });
      if (hash !== null) {
        store.setPasswordHash(id, hash);
        return { id, link: null };
      }
      return { id, link: passwordLink(store, id, publicUrl) };
    });
    out(`created user ${made.id} (${email.toLowerCase()}, ${role}) on plan ${plan}`);
    if (made.link) {
      out(`the set-password link works once, until ${new Date(made.link.expiresAt).toISOString()}:`);
      out(made.link.url);
    } else out("the password is set");
  } else if (action === "list") {
    const rows = await withAccount(dataDir, flags, (store) => store.listUsers(0, Number.MAX_SAFE_INTEGER));
    const { userView } = await import("./serve/modules/account/service");
    if (flags.json) return out(JSON.stringify(rows.map(userView), null, 2));
    out(["id", "email", "name", "role", "plan", "created", "disabled"].join("\t"));
    for (const r of rows.map(userView)) out([r.id, r.email ?? "-", r.name, r.role, r.plan, r.created_at, r.disabled_at ?? "-"].join("\t"));
  } else if (action === "disable") {
    if (!arg || !/^\d{1,9}$/.test(arg)) throw new ConfigError("users disable needs a user ID (the number from `users list`)");
    const before = await withAccount(dataDir, flags, (store) => {
      const was = store.changeUser(Number(arg), { disabled: true }, Date.now());
      if (was && was.disabled_at === null) cliAudit(store, "user.changed", Number(arg), { disabled: true });
      return was;
    });
    if (!before) throw new ConfigError(`no user with id ${arg}`);
    out(before.disabled_at === null ? `disabled user ${arg}: its keys and sessions are refused from now on` : `user ${arg} was disabled already`);
  } else {
    throw new ConfigError("users needs one of: create, list, disable");
  }
}

async function notices(flags: Record<string, string | true>): Promise<void> {
  const rows = await withAccount(dataDirFrom(flags), flags, (store) => store.listNotices());
  if (flags.json)
    return out(
      JSON.stringify(
        rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
        null,
        2,
      ),
    );
  if (rows.length === 0) return out("no allowance notices");
  for (const r of rows) {
    out(
      `${new Date(r.created_at).toISOString()}  user ${r.user_id} (${r.user_name}, ${r.plan}) reached ${r.threshold}% of the ${r.pool} pool: ` +
        `${r.du_consumed} of ${r.du_limit} DU for ${r.period_start}..${r.period_end}, projected ${r.projected_eop} at period end`,
    );
  }
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv, VERSION);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`artmarket: ${err.message}\n`);
    return 2;
  }
  // a help or version request is answered before anything runs
  if (parsed.kind === "version") {
    out(`artmarket ${VERSION} (${BUILD_ID})`);
    return 0;
  }
  if (parsed.kind === "help") {
    out(parsed.text);
    return argv.length === 0 ? 2 : 0;
  }
  const { command, positionals: rest, flags } = parsed;
  try {
    // the files of a seed or import that was killed (src/pipeline/db/leftovers.ts); image copies: serve and import
    const { DATA_DIR_COMMANDS, removeStaleBuildsAtStart } = await import("./pipeline/db/leftovers");
    if (command && DATA_DIR_COMMANDS.includes(command)) removeStaleBuildsAtStart(dataDirFrom(flags), { images: command === "serve" || command === "import" });
    switch (command) {
      case "serve":
        await serve(flags);
        return -1; // keeps running
      case "seed": {
        const scale = parseScale(flags);
        const seed = intFlag(flags, "seed", 0, 2 ** 31 - 1) ?? DEFAULT_SEED;
        const asOf = stringFlag(flags, "as-of");
        if (asOf !== undefined && (!isIsoDate(asOf) || asOf < "1990-01-01")) throw new ConfigError(`--as-of must be a date (YYYY-MM-DD) from 1990 on, got "${asOf}"`);
        const { formatSummary, seedMarket } = await import("./pipeline/seed");
        const summary = await seedMarket({ dataDir: dataDirFrom(flags), scale, seed, asOf });
        out(formatSummary(summary));
        return 0;
      }
      case "keys":
        await keys(rest, flags);
        return 0;
      case "users":
        await users(rest, flags);
        return 0;
      case "reload":
        return await reload(flags);
      case "notices":
        await notices(flags);
        return 0;
      case "backup": {
        const to = stringFlag(flags, "to");
        if (!to) throw new ConfigError("backup needs --to DIR (a new or empty directory)");
        const accountStore = accountStoreFrom(flags);
        const { backup } = await import("./ops/backup");
        const { PgError } = await import("./db/pg/sync-client");
        let m: ReturnType<typeof backup>;
        try {
          m = backup({ dataDir: dataDirFrom(flags), to, withMarket: flags["with-market"] === true, accountStore });
        } catch (err) {
          if (!(err instanceof PgError)) throw err;
          process.stderr.write(`artmarket backup: PostgreSQL: ${err.message}\nno backup was written\n`);
          return 1;
        }
        const bytes = m.files.reduce((n, f) => n + f.size, 0);
        out(
          `backed up ${m.files.length} file(s), ${bytes} bytes, into ${to}: ${m.account.users} user(s), ${m.account.api_keys} key(s), ` +
            `${m.account.du_ledger_rows} ledger row(s), ${m.account.collectables} collectable(s)${m.with_market ? ", the market" : ""}` +
            (accountStore ? ` (the account store read from ${m.source})` : ""),
        );
        for (const path of m.missing) process.stderr.write(`artmarket backup: ${path} was deleted while the backup ran; its collectable has no image in the backup\n`);
        return 0;
      }
      case "restore": {
        const from = stringFlag(flags, "from");
        if (!from) throw new ConfigError("restore needs --from DIR (a directory written by artmarket backup)");
        const accountStore = accountStoreFrom(flags);
        const { restore } = await import("./ops/restore");
        const { BackupInvalid } = await import("./ops/manifest");
        const { PgError } = await import("./db/pg/sync-client");
        const { redactUrl } = await import("./platform/config");
        try {
          const r = restore({ from, dataDir: dataDirFrom(flags), accountStore, log: (line) => process.stderr.write(`artmarket restore: ${line}\n`) });
          if (r.loaded) {
            const rows = Object.entries(r.loaded).reduce((n, [table, count]) => (table === "collectable_images" ? n : n + count), 0);
            out(
              `restored the account store of the backup of ${r.manifest.created_at} into PostgreSQL ${redactUrl(accountStore!)}: ${rows} row(s), ` +
                `${r.loaded.collectable_images ?? 0} image original(s)`,
            );
            if (r.manifest.with_market) out(`and its market into ${dataDirFrom(flags)}`);
          } else out(`restored ${r.restored.length} file(s) of the backup of ${r.manifest.created_at} into ${dataDirFrom(flags)}`);
          if (r.previous) out(`the files it replaced are in ${r.previous} (remove it once the restored data is checked)`);
        } catch (err) {
          if (err instanceof PgError) {
            process.stderr.write(`artmarket restore: PostgreSQL: ${err.message}\nnothing was restored; the account store and the data directory are unchanged\n`);
            return 1;
          }
          if (!(err instanceof BackupInvalid)) throw err;
          process.stderr.write(
            `artmarket restore: ${err.message}\nnothing was restored; the ${accountStore ? "account store and the " : ""}data directory ${accountStore ? "are" : "is"} unchanged\n`,
          );
          return 1;
        }
        return 0;
      }
      case "import": {
        const from = stringFlag(flags, "from");
        if (!from) throw new ConfigError("import needs --from DIR (a directory in the import format, docs/import-format.md)");
        const mode = stringFlag(flags, "mode") ?? "replace";
        if (mode !== "replace" && mode !== "merge") throw new ConfigError(`--mode must be replace or merge, got "${mode}"`);
        const { formatImportSummary, runImport } = await import("./pipeline/import/run");
        const { ImportError } = await import("./pipeline/import/types");
        try {
          if (flags.refit && mode !== "merge") throw new ConfigError("--refit goes with --mode merge (a replace always derives the whole market)");
          out(formatImportSummary(await runImport({ dataDir: dataDirFrom(flags), from, mode, refit: flags.refit === true })));
        } catch (err) {
          if (!(err instanceof ImportError)) throw err;
          process.stderr.write(`artmarket import: ${err.message}\nnothing was imported; the current market is unchanged\n`);
          return 1;
        }
        return 0;
      }
      case "export": {
        const to = stringFlag(flags, "to");
        if (!to) throw new ConfigError("export needs --to DIR");
        const format = stringFlag(flags, "format") ?? "jsonl";
        if (format !== "jsonl" && format !== "csv") throw new ConfigError(`--format must be jsonl or csv, got "${format}"`);
        const dataDir = dataDirFrom(flags);
        if (!existsSync(marketDbPath(dataDir))) throw new ConfigError(`no market in ${dataDir}: nothing to export`);
        const { exportMarket, formatExportSummary } = await import("./pipeline/import/export");
        out(formatExportSummary(await exportMarket(dataDir, to, { format })));
        return 0;
      }
      case "feed": {
        const to = stringFlag(flags, "to");
        if (!to) throw new ConfigError("feed needs --to DIR (the import directory to write)");
        const days = intFlag(flags, "days", 1, 3660);
        if (days === undefined) throw new ConfigError("feed needs --days N (1 to 3660)");
        const { FeedError, feedMarket, formatFeedSummary } = await import("./pipeline/feed");
        try {
          out(formatFeedSummary(await feedMarket({ dataDir: dataDirFrom(flags), to, days })));
        } catch (err) {
          if (!(err instanceof FeedError)) throw err;
          process.stderr.write(`artmarket feed: ${err.message}\n`);
          return 1;
        }
        return 0;
      }
      case "doctor": {
        // the default data directory (./data) is not created when it does not exist: the check
        // extracts into a temporary one, removed afterwards; a --data or $ARTMARKET_DATA given is used
        const given = dataDirFrom(flags);
        const defaulted = flags.data === undefined && process.env.ARTMARKET_DATA === undefined;
        const scratch = defaulted && !existsSync(given) ? mkdtempSync(join(tmpdir(), "artmarket-doctor-")) : null;
        const { selfCheck } = await import("./platform/selfcheck");
        let results: Awaited<ReturnType<typeof selfCheck>>;
        try {
          results = await selfCheck(scratch ?? given);
        } finally {
          if (scratch) rmSync(scratch, { recursive: true, force: true });
        }
        for (const r of results) out(`${r.ok ? "ok  " : "FAIL"} ${r.name}: ${r.detail}`);
        return results.every((r) => r.ok) ? 0 : 1;
      }
      default:
        process.stderr.write(`artmarket: unknown command "${command}" (see artmarket --help)\n`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof KeyError) {
      process.stderr.write(`artmarket ${command}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
