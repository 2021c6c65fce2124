/**
 * Command-line flags and environment, parsed once into a frozen object.
 * A bad flag ends the program with a clear message (ConfigError), never a stack trace.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { parseCidr } from "./address-guard";

export class ConfigError extends Error {}

export const SCALES = ["tiny", "small", "medium", "large", "full"] as const;
export type Scale = (typeof SCALES)[number];

export interface Config {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string | null;
  /** CIDR ranges beyond the public internet that an `image_url` may resolve to (`--fetch-allow`). */
  readonly fetchAllow?: readonly string[];
  /** CIDR ranges beyond the public internet that webhook destinations may resolve to (`--webhook-allow`). */
  readonly webhookAllow?: readonly string[];
  /** Honour X-Forwarded-Proto/Host/For from a reverse proxy (`--trust-proxy`). */
  readonly trustProxy?: boolean;
  /** Seconds that requests in flight get to finish on SIGTERM/SIGINT (`--shutdown-timeout`). */
  readonly shutdownTimeoutS?: number;
  /**
   * Seconds the server keeps serving after SIGTERM/SIGINT, /readyz answering 503, before it stops
   * accepting connections (`--drain-delay`).
   */
  readonly drainDelayS?: number;
  /** HTTP workers sharing the port (`--workers`; default: the CPU count). */
  readonly workers?: number;
  /** The access log's format (`--log-format`): json, text, or off. */
  readonly logFormat?: "json" | "text" | "off";
  /**
   * Where accounts live (`--account-store`): null for account.db in the data directory, or the
   * postgres:// URL of a PostgreSQL database that several nodes share.
   */
  readonly accountStore?: string | null;
  /**
   * The base URL of the node whose snapshot this one follows (`--snapshot-from`): it fetches that
   * node's market.db when it changes and publishes it into its own data directory; null: none.
   */
  readonly snapshotFrom?: string | null;
  /**
   * `--advance DURATION`: every so many milliseconds the server feeds its seeded market one more
   * day and merges it in the background (src/serve/cluster/advance.ts); null: off.
   */
  readonly advanceMs?: number | null;
  /** Single sign-on to the console through an OpenID Connect provider (`--oidc-issuer` …); absent: off. */
  readonly oidc?: OidcConfig;
}

/** The OpenID Connect provider the console's users may sign in with (docs/accounts.md#single-sign-on). */
export interface OidcConfig {
  /** The issuer's URL: its discovery document is `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A value of the ID token's `groups` claim that makes the user an admin (checked at each sign-in); null: roles are kept. */
  readonly adminGroup: string | null;
  /** The plan of a user made at their first sign-in; null: only users who exist (by email) sign in. */
  readonly plan: string | null;
}

/**
 * The serve options' defaults, written once: the configuration applies them and the command line's
 * help (cli-spec.ts) prints them.
 */
export const SERVE_DEFAULTS = Object.freeze({
  dataDir: "./data",
  port: 8080,
  host: "127.0.0.1",
  shutdownTimeoutS: 30,
  drainDelayS: 5,
  logFormat: "json",
  accountStore: "sqlite",
  advance: "off",
} as const);

/** The random seed of `seed` and of the market a first start builds, unless `--seed` names another. */
export const DEFAULT_SEED = 1986;

/** The longest `--advance` interval: a week. */
export const MAX_ADVANCE_MS = 7 * 86_400_000;

/**
 * A duration such as `90s`, `2m`, `1h` or `1h30m` (whole numbers, units h, m, s, each at most once
 * and in that order), in milliseconds; null for anything else.
 */
export function parseDuration(text: string): number | null {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  if (!m || text.trim() === "") return null;
  const [, h, min, s] = m;
  return ((Number(h ?? 0) * 60 + Number(min ?? 0)) * 60 + Number(s ?? 0)) * 1000;
}

/**
 * `--account-store` / ARTMARKET_ACCOUNT_STORE: "sqlite" (or nothing) for account.db in the data
 * directory, or a postgres:// (postgresql://) URL; anything else is refused.
 */
export function accountStoreFrom(flags: ParsedArgs["flags"], env: Record<string, string | undefined> = process.env): string | null {
  const raw = stringFlag(flags, "account-store") ?? env.ARTMARKET_ACCOUNT_STORE ?? "";
  if (raw === "" || raw === SERVE_DEFAULTS.accountStore) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--account-store must be "sqlite" or a postgres:// URL, got "${redactUrl(raw)}"`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ConfigError(`--account-store must be "sqlite" or a postgres:// URL, got "${redactUrl(raw)}"`);
  }
  if (!url.hostname || url.pathname.length <= 1) throw new ConfigError(`--account-store needs a host and a database name: postgres://user:password@host:5432/database`);
  return raw;
}

/** A URL with its password replaced by ***, for messages and logs. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return raw.replace(/:[^:@/]*@/, ":***@");
  }
}

/** The most workers one server starts. */
export const MAX_WORKERS = 256;

export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Record<string, string | true>;
}

/** Splits `a b --x 1 --y=2 --flag` into positionals and flags; a flag's value is the next word unless it starts with `--`. */
export function parseArgs(argv: readonly string[], booleanFlags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("--")) {
      positionals.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    if (eq > 0) {
      flags[word.slice(2, eq)] = word.slice(eq + 1);
      continue;
    }
    const name = word.slice(2);
    const next = argv[i + 1];
    if (booleanFlags.includes(name) || next === undefined || next.startsWith("--")) {
      flags[name] = true;
    } else {
      flags[name] = next;
      i++;
    }
  }
  return { positionals, flags };
}

export function stringFlag(flags: ParsedArgs["flags"], name: string): string | undefined {
  const value = flags[name];
  if (value === true) throw new ConfigError(`--${name} needs a value`);
  return value;
}

export function intFlag(flags: ParsedArgs["flags"], name: string, min: number, max: number): number | undefined {
  const raw = stringFlag(flags, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`--${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** `--data`, else `$ARTMARKET_DATA`, else `./data`, resolved against the working directory. */
export function dataDirFrom(flags: ParsedArgs["flags"], env: Record<string, string | undefined> = process.env): string {
  return resolve(stringFlag(flags, "data") ?? env.ARTMARKET_DATA ?? SERVE_DEFAULTS.dataDir);
}

/** `--public-url`, else `$ARTMARKET_PUBLIC_URL`: an absolute http(s) URL without a trailing slash; null when neither is set. */
export function publicUrlFrom(flags: ParsedArgs["flags"], env: Record<string, string | undefined> = process.env): string | null {
  const publicUrl = stringFlag(flags, "public-url") ?? env.ARTMARKET_PUBLIC_URL ?? null;
  if (publicUrl === null) return null;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new ConfigError(`--public-url must be an absolute http(s) URL, got "${publicUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`--public-url must be an http(s) URL, got "${publicUrl}"`);
  }
  return publicUrl.replace(/\/+$/, "");
}

export function serveConfig(flags: ParsedArgs["flags"], env: Record<string, string | undefined> = process.env): Config {
  const port = intFlag(flags, "port", 0, 65535) ?? (env.ARTMARKET_PORT ? Number(env.ARTMARKET_PORT) : SERVE_DEFAULTS.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`ARTMARKET_PORT must be a port number`);
  const host = stringFlag(flags, "host") ?? env.ARTMARKET_HOST ?? SERVE_DEFAULTS.host;
  const publicUrl = publicUrlFrom(flags, env);
  const allowRaw = stringFlag(flags, "fetch-allow") ?? env.ARTMARKET_FETCH_ALLOW ?? "";
  const fetchAllow = allowRaw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const cidr of fetchAllow) if (!isCidr(cidr)) throw new ConfigError(`--fetch-allow takes CIDR ranges (10.0.0.0/8, fd00::/8), got "${cidr}"`);
  const webhookAllow = (stringFlag(flags, "webhook-allow") ?? env.ARTMARKET_WEBHOOK_ALLOW ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const cidr of webhookAllow) if (!isCidr(cidr)) throw new ConfigError(`--webhook-allow takes CIDR ranges (10.0.0.0/8, fd00::/8), got "${cidr}"`);
  const trustFlag = flags["trust-proxy"];
  if (typeof trustFlag === "string" && !/^(1|true|0|false)$/i.test(trustFlag)) throw new ConfigError(`--trust-proxy takes no value, got "${trustFlag}"`);
  const trustProxy = trustFlag === true || (typeof trustFlag === "string" ? /^(1|true)$/i.test(trustFlag) : /^(1|true|yes)$/i.test(env.ARTMARKET_TRUST_PROXY ?? ""));
  const shutdownRaw = stringFlag(flags, "shutdown-timeout") ?? env.ARTMARKET_SHUTDOWN_TIMEOUT;
  const shutdownTimeoutS = shutdownRaw === undefined ? SERVE_DEFAULTS.shutdownTimeoutS : Number(shutdownRaw);
  if (!/^\d+(\.\d+)?$/.test(shutdownRaw ?? String(SERVE_DEFAULTS.shutdownTimeoutS)) || !(shutdownTimeoutS >= 0 && shutdownTimeoutS <= 3600)) {
    throw new ConfigError(`--shutdown-timeout must be a number of seconds from 0 to 3600, got "${shutdownRaw}"`);
  }
  const drainRaw = stringFlag(flags, "drain-delay") ?? env.ARTMARKET_DRAIN_DELAY;
  const drainDelayS = drainRaw === undefined || drainRaw === "" ? SERVE_DEFAULTS.drainDelayS : Number(drainRaw);
  if (!/^\d+(\.\d+)?$/.test(drainRaw || String(SERVE_DEFAULTS.drainDelayS)) || !(drainDelayS >= 0 && drainDelayS <= 3600)) {
    throw new ConfigError(`--drain-delay must be a number of seconds from 0 to 3600, got "${drainRaw}"`);
  }
  const workersRaw = stringFlag(flags, "workers") ?? env.ARTMARKET_WORKERS;
  const workers = workersRaw === undefined || workersRaw === "" ? Math.max(1, Math.min(MAX_WORKERS, availableParallelism())) : Number(workersRaw);
  if (!/^\d+$/.test(workersRaw ?? "1") || !Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new ConfigError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got "${workersRaw}"`);
  }
  const snapshotFrom = stringFlag(flags, "snapshot-from") ?? (env.ARTMARKET_SNAPSHOT_FROM || null);
  if (snapshotFrom !== null) {
    let url: URL | null = null;
    try {
      url = new URL(snapshotFrom);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash)
      throw new ConfigError(`--snapshot-from must be the http(s) base URL of another node (http://10.0.0.11:8080), got "${snapshotFrom}"`);
  }
  const advanceRaw = stringFlag(flags, "advance") ?? env.ARTMARKET_ADVANCE ?? "";
  const advanceMs = advanceRaw === "" || advanceRaw === SERVE_DEFAULTS.advance ? null : parseDuration(advanceRaw);
  if (advanceMs !== null && (advanceMs < 1000 || advanceMs > MAX_ADVANCE_MS)) throw new ConfigError(`--advance must be from 1s to 168h, got "${advanceRaw}"`);
  if (advanceRaw !== "" && advanceRaw !== SERVE_DEFAULTS.advance && advanceMs === null)
    throw new ConfigError(`--advance takes a duration with a unit (90s, 2m, 1h, 1h30m), got "${advanceRaw}"`);
  if (advanceMs !== null && snapshotFrom !== null)
    throw new ConfigError("--advance cannot be used with --snapshot-from: a follower serves its source's snapshot; advance the source node");
  const oidc = oidcConfig(flags, env);
  const logFormat = stringFlag(flags, "log-format") ?? env.ARTMARKET_LOG_FORMAT ?? SERVE_DEFAULTS.logFormat;
  if (logFormat !== "json" && logFormat !== "text" && logFormat !== "off") throw new ConfigError(`--log-format must be json, text or off, got "${logFormat}"`);
  return Object.freeze({
    dataDir: dataDirFrom(flags, env),
    port,
    host,
    publicUrl,
    fetchAllow: Object.freeze(fetchAllow),
    trustProxy,
    shutdownTimeoutS,
    drainDelayS,
    workers,
    logFormat,
    accountStore: accountStoreFrom(flags, env),
    snapshotFrom: snapshotFrom?.replace(/\/+$/, "") ?? null,
    advanceMs,
    ...(oidc && { oidc }),
    ...(webhookAllow.length > 0 && { webhookAllow: Object.freeze(webhookAllow) }),
  });
}

/** `--oidc-issuer`, `--oidc-client-id`, `--oidc-client-secret` (all three or none), `--oidc-admin-group`, `--oidc-plan`. */
function oidcConfig(flags: ParsedArgs["flags"], env: Record<string, string | undefined>): OidcConfig | null {
  const issuer = stringFlag(flags, "oidc-issuer") ?? (env.ARTMARKET_OIDC_ISSUER || undefined);
  const clientId = stringFlag(flags, "oidc-client-id") ?? (env.ARTMARKET_OIDC_CLIENT_ID || undefined);
  const clientSecret = stringFlag(flags, "oidc-client-secret") ?? (env.ARTMARKET_OIDC_CLIENT_SECRET || undefined);
  const adminGroup = stringFlag(flags, "oidc-admin-group") ?? (env.ARTMARKET_OIDC_ADMIN_GROUP || null);
  const plan = stringFlag(flags, "oidc-plan") ?? (env.ARTMARKET_OIDC_PLAN || null);
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) {
    if (adminGroup !== null || plan !== null) throw new ConfigError("--oidc-admin-group and --oidc-plan need --oidc-issuer, --oidc-client-id and --oidc-client-secret");
    return null;
  }
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    throw new ConfigError("single sign-on needs all three of --oidc-issuer, --oidc-client-id and --oidc-client-secret");
  }
  let url: URL | null = null;
  try {
    url = new URL(issuer);
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash) {
    throw new ConfigError(`--oidc-issuer must be the provider's https URL (https://login.example.com/realms/acme), got "${issuer}"`);
  }
  return Object.freeze({ issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, adminGroup, plan });
}

/**
 * The demo market `serve` builds on an empty data directory: `small` with its images embedded,
 * unless `ARTMARKET_DEMO_SCALE` names another scale or `ARTMARKET_DEMO_EMBED=0` skips the
 * embedding (the tests start on `tiny` without it, to spare the small market's half minute).
 */
export function demoMarketFrom(env: Record<string, string | undefined> = process.env): { scale: Scale; embed: boolean } {
  const scale = env.ARTMARKET_DEMO_SCALE || "small";
  if (!(SCALES as readonly string[]).includes(scale)) throw new ConfigError(`ARTMARKET_DEMO_SCALE must be one of ${SCALES.join(", ")}, got "${scale}"`);
  const embedRaw = env.ARTMARKET_DEMO_EMBED || "1";
  if (!/^(1|true|0|false)$/i.test(embedRaw)) throw new ConfigError(`ARTMARKET_DEMO_EMBED must be 1 or 0, got "${embedRaw}"`);
  return { scale: scale as Scale, embed: /^(1|true)$/i.test(embedRaw) };
}

/** `a.b.c.d/n` (n 0..32) or an IPv6 address with `/n` (n 0..128): what the fetch guard's allow list takes. */
export function isCidr(text: string): boolean {
  return parseCidr(text) !== null;
}

/** The market pipeline's settings from the environment (seed, import, derive), read in one place. */
export interface PipelineSettings {
  /** ARTMARKET_DERIVE_WORKERS: worker threads for the derivation's pass 2 (0: none); undefined: the default by size. */
  readonly deriveWorkers?: number;
  /** ARTMARKET_EARLY_LOT_INDEXES: 1 to build the lots' read indexes beside the derivation, 0 not to; undefined: by size. */
  readonly earlyLotIndexes?: boolean;
  /** ARTMARKET_SKIP_SPACE_CHECK=1: build without checking the free space (a disk statfs misreads, a quota it cannot see). */
  readonly skipSpaceCheck: boolean;
}

export function pipelineSettings(env: Record<string, string | undefined> = process.env): PipelineSettings {
  const workersRaw = env.ARTMARKET_DERIVE_WORKERS;
  let deriveWorkers: number | undefined;
  if (workersRaw !== undefined && workersRaw !== "") {
    deriveWorkers = Number(workersRaw);
    if (!Number.isInteger(deriveWorkers) || deriveWorkers < 0 || deriveWorkers > MAX_WORKERS)
      throw new ConfigError(`ARTMARKET_DERIVE_WORKERS must be a whole number from 0 to ${MAX_WORKERS}, not ${JSON.stringify(workersRaw)}`);
  }
  const earlyRaw = env.ARTMARKET_EARLY_LOT_INDEXES;
  let earlyLotIndexes: boolean | undefined;
  if (earlyRaw !== undefined && earlyRaw !== "") {
    if (earlyRaw !== "0" && earlyRaw !== "1") throw new ConfigError(`ARTMARKET_EARLY_LOT_INDEXES must be 0 or 1, not ${JSON.stringify(earlyRaw)}`);
    earlyLotIndexes = earlyRaw === "1";
  }
  return Object.freeze({ deriveWorkers, earlyLotIndexes, skipSpaceCheck: env.ARTMARKET_SKIP_SPACE_CHECK === "1" });
}
