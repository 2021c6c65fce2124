/**
 * The command line's declaration: every command, its options (with their defaults and
 * environment variables), its usage and examples. From it come the help pages (`artmarket
 * --help`, `artmarket COMMAND --help`) and the strict parse: an unknown command or option, or an
 * option without its value, is a UsageError (exit 2, one line naming it). A help or version
 * request is answered before anything else runs.
 */
import { DEFAULT_SEED, SERVE_DEFAULTS } from "./config";

export class UsageError extends Error {}

export interface OptionSpec {
  name: string;
  /** The value's placeholder (`DIR`, `N`); absent for a switch. */
  value?: string;
  description: string;
  default?: string;
  env?: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string[];
  description?: string;
  options: OptionSpec[];
  examples?: string[];
}

const DATA: OptionSpec = { name: "data", value: "DIR", description: "the data directory", default: SERVE_DEFAULTS.dataDir, env: "ARTMARKET_DATA" };
const ACCOUNT_STORE: OptionSpec = {
  name: "account-store",
  value: "URL",
  description: "where accounts live: sqlite (account.db in the data directory) or postgres://user:password@host:5432/db, shared by several nodes",
  default: SERVE_DEFAULTS.accountStore,
  env: "ARTMARKET_ACCOUNT_STORE",
};
const JSON_OUT: OptionSpec = { name: "json", description: "print JSON instead of text" };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "serve",
    summary: "run the HTTP service",
    usage: ["artmarket serve [options]"],
    description:
      "Serves the market snapshot and the account store of the data directory. On an empty data directory it first builds the demo market and prints a new enterprise key once. The first stdout line is `listening on http://HOST:PORT`, then the console's and the docs' URLs. SIGTERM or SIGINT turns /readyz to 503, keeps serving for the drain delay, then refuses new connections, lets the requests in flight finish and exits 0.",
    options: [
      ACCOUNT_STORE,
      DATA,
      { name: "port", value: "N", description: "TCP port (0 picks a free one)", default: String(SERVE_DEFAULTS.port), env: "ARTMARKET_PORT" },
      { name: "host", value: "ADDR", description: "address to listen on", default: SERVE_DEFAULTS.host, env: "ARTMARKET_HOST" },
      { name: "public-url", value: "URL", description: "scheme and host written into signed image URLs, share links and /openapi.json", env: "ARTMARKET_PUBLIC_URL" },
      { name: "trust-proxy", description: "honour X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For from a reverse proxy", env: "ARTMARKET_TRUST_PROXY=1" },
      { name: "fetch-allow", value: "CIDR,...", description: "non-public address ranges an image_url may resolve to", env: "ARTMARKET_FETCH_ALLOW" },
      { name: "webhook-allow", value: "CIDR,...", description: "non-public address ranges webhook destinations may resolve to", env: "ARTMARKET_WEBHOOK_ALLOW" },
      { name: "oidc-issuer", value: "URL", description: "single sign-on to the console: the OpenID Connect provider's issuer URL", env: "ARTMARKET_OIDC_ISSUER" },
      { name: "oidc-client-id", value: "ID", description: "single sign-on: this service's client id at the provider", env: "ARTMARKET_OIDC_CLIENT_ID" },
      {
        name: "oidc-client-secret",
        value: "S",
        description: "single sign-on: the client's secret (the variable keeps it out of the process list)",
        env: "ARTMARKET_OIDC_CLIENT_SECRET",
      },
      { name: "oidc-admin-group", value: "NAME", description: "single sign-on: a `groups` claim value that makes the user an admin", env: "ARTMARKET_OIDC_ADMIN_GROUP" },
      {
        name: "oidc-plan",
        value: "SLUG",
        description: "single sign-on: make a user on this plan at their first sign-in",
        default: "only existing users sign in",
        env: "ARTMARKET_OIDC_PLAN",
      },
      { name: "workers", value: "N", description: "HTTP workers sharing the port (one thread each; 1: a single worker)", default: "the CPU count", env: "ARTMARKET_WORKERS" },
      {
        name: "log-format",
        value: "FORMAT",
        description: "access log on stderr, one line per request: json, text, or off",
        default: SERVE_DEFAULTS.logFormat,
        env: "ARTMARKET_LOG_FORMAT",
      },
      {
        name: "shutdown-timeout",
        value: "SECONDS",
        description: "how long requests in flight get to finish on SIGTERM or SIGINT",
        default: String(SERVE_DEFAULTS.shutdownTimeoutS),
        env: "ARTMARKET_SHUTDOWN_TIMEOUT",
      },
      {
        name: "drain-delay",
        value: "SECONDS",
        description: "after SIGTERM or SIGINT, how long /readyz answers 503 while requests are still served (with Connection: close), before new connections are refused",
        default: String(SERVE_DEFAULTS.drainDelayS),
        env: "ARTMARKET_DRAIN_DELAY",
      },
      {
        name: "snapshot-from",
        value: "URL",
        description:
          "follow another node's market snapshot: ask it every 5 s (and on SIGHUP or reload), fetch its market.db when it changes (signed with the secret nodes on one PostgreSQL store share; SHA-256 checked, resumed after an interruption) and publish it here",
        env: "ARTMARKET_SNAPSHOT_FROM",
      },
      {
        name: "advance",
        value: "DURATION",
        description:
          "a live demo: every DURATION (90s, 2m, 1h) feed the seeded market one more day and merge it in the background (artmarket feed --days 1, then import --mode merge, at low priority), then serve the new snapshot; a round still running when the next is due skips it; needs truth.db",
        default: SERVE_DEFAULTS.advance,
        env: "ARTMARKET_ADVANCE",
      },
    ],
    examples: ["artmarket serve --data /var/lib/artmarket --host 0.0.0.0 --port 8080", "artmarket serve --port 0 --workers 4"],
  },
  {
    name: "seed",
    summary: "build a deterministic synthetic market",
    usage: ["artmarket seed --scale tiny|small|medium|large|full [options]"],
    description: "Builds market.db (and its latent truth, truth.db) beside the current one and swaps it in when done. The same seed and as-of date give the same data.",
    options: [
      { name: "scale", value: "SCALE", description: "tiny, small, medium, large or full (required)" },
      { name: "seed", value: "N", description: "the random seed", default: String(DEFAULT_SEED) },
      { name: "as-of", value: "YYYY-MM-DD", description: "the market's today", default: "today" },
      DATA,
    ],
    examples: ["artmarket seed --scale small", "artmarket seed --scale full --data /srv/artmarket"],
  },
  {
    name: "keys",
    summary: "create, list and revoke API keys; DU and requests per key",
    usage: [
      "artmarket keys create --plan SLUG [--name TEXT] [--data DIR]",
      "artmarket keys list [--json] [--data DIR]",
      "artmarket keys revoke ID [--data DIR]",
      "artmarket keys usage [--json] [--since YYYY-MM-DD] [--data DIR]",
    ],
    description:
      "create makes a user on a plan with one key and prints the key alone on the last line (only its hash is stored). revoke takes the key's id or kid and takes effect at once, also on a running server. usage adds up the DU ledger per user and key: requests and DU, from --since on (UTC days), every key listed.",
    options: [
      { name: "plan", value: "SLUG", description: "create: the plan (sandbox, pro, enterprise)" },
      { name: "name", value: "TEXT", description: "create: the user's name" },
      { name: "since", value: "YYYY-MM-DD", description: "usage: count the requests of this UTC day and later", default: "every day" },
      JSON_OUT,
      ACCOUNT_STORE,
      DATA,
    ],
    examples: ["artmarket keys create --plan pro --name 'Research desk'", "artmarket keys list --json", "artmarket keys revoke 3", "artmarket keys usage --since 2026-01-01"],
  },
  {
    name: "users",
    summary: "make, list and disable users who sign in to the account area",
    usage: [
      "artmarket users create --email E --plan SLUG [--admin] [--name TEXT] [--password-stdin] [--public-url URL] [--data DIR]",
      "artmarket users list [--json] [--data DIR]",
      "artmarket users disable ID [--data DIR]",
    ],
    description:
      "create makes a user who signs in with an email and a password (a member, or an admin with --admin) and prints a one-time set-password link (72 hours) on the last line, or, with --password-stdin, sets the password read from standard input. disable refuses the user's keys and sessions at once, also on a running server. keys create still makes a user with one key and no sign-in.",
    options: [
      { name: "email", value: "E", description: "create: the address the user signs in with" },
      { name: "plan", value: "SLUG", description: "create: the plan (sandbox, pro, enterprise)" },
      { name: "admin", description: "create: an admin (manages users, reads everyone's usage and the audit log)" },
      { name: "name", value: "TEXT", description: "create: the user's name", default: "the email" },
      { name: "password-stdin", description: "create: read the password from standard input instead of printing a link" },
      {
        name: "public-url",
        value: "URL",
        description: "create: where the link points (the server's --public-url)",
        default: `http://${SERVE_DEFAULTS.host}:${SERVE_DEFAULTS.port}`,
        env: "ARTMARKET_PUBLIC_URL",
      },
      JSON_OUT,
      ACCOUNT_STORE,
      DATA,
    ],
    examples: [
      "artmarket users create --email ada@example.com --plan pro",
      "artmarket users create --email ops@example.com --plan enterprise --admin",
      "artmarket users list",
      "artmarket users disable 7",
    ],
  },
  {
    name: "notices",
    summary: "list the allowance notices (80 % and 100 % of a paid plan's allowance)",
    usage: ["artmarket notices [--json] [--data DIR]"],
    options: [JSON_OUT, ACCOUNT_STORE, DATA],
  },
  {
    name: "import",
    summary: "load auction records in the import format, then derive",
    usage: ["artmarket import --from DIR [--mode replace|merge] [--refit] [--data DIR]"],
    description:
      "Reads JSONL or CSV files in the import format (docs/import-format.md), reports rejected rows, derives every metric and swaps the new market in. A failed import changes nothing. A merge of results, sales and rates derives only what its records touch, against the model the last full derivation fitted; --refit derives the whole market and fits the model again (docs/derivation.md).",
    options: [
      { name: "from", value: "DIR", description: "the directory to import (required)" },
      { name: "mode", value: "MODE", description: "replace the market, or merge the records into it", default: "replace" },
      { name: "refit", description: "with --mode merge: derive the whole market again, the market-wide model refitted (weekly, or after a large import)" },
      DATA,
    ],
    examples: ["artmarket import --from ./records", "artmarket import --from ./update --mode merge", "artmarket import --from ./week --mode merge --refit"],
  },
  {
    name: "feed",
    summary: "write what happens in a seeded market's next N days, as records to import",
    usage: ["artmarket feed --days N --to DIR [--data DIR]"],
    description:
      "Draws the days after the market's as-of date from its latent truth (truth.db) by the rules of seed: the results its houses publish (the seven top houses 1-2 days after a sale, the others up to 14), sale statuses, new sales with their catalogues, the days' FX rates and artist events. Writes them to DIR in the import format with the new as-of date; the same market fed the same days writes the same files. Extends truth.db to the new months; never changes market.db. Then: artmarket import --from DIR --mode merge.",
    options: [
      { name: "days", value: "N", description: "how many days to go on (required; 1 to 3660)" },
      { name: "to", value: "DIR", description: "the directory to write (required)" },
      DATA,
    ],
    examples: ["artmarket feed --days 1 --to ./day && artmarket import --from ./day --mode merge"],
  },
  {
    name: "reload",
    summary: "make the running server serve the newest snapshot published into its data directory",
    usage: ["artmarket reload [--timeout SECONDS] [--data DIR]"],
    description:
      "A server swaps by itself to a snapshot renamed over market.db (seed and import do so when they finish); reload asks it now, as SIGHUP does, and waits for the answer. The new file is checked (integrity, migrations, read indexes, snapshot id) and every worker swapped to it; requests in flight finish on the old one. Exit 0 once the server serves the newest snapshot (its id is printed), 1 if it refused it (the reason is printed; the old one is still served), 2 if no server holds the data directory.",
    options: [{ name: "timeout", value: "SECONDS", description: "how long to wait for the server's answer", default: "600" }, DATA],
    examples: ["artmarket reload --data /var/lib/artmarket"],
  },
  {
    name: "export",
    summary: "write the current market in the import format",
    usage: ["artmarket export --to DIR [--format jsonl|csv] [--data DIR]"],
    options: [
      { name: "to", value: "DIR", description: "the directory to write (required)" },
      { name: "format", value: "FORMAT", description: "jsonl or csv", default: "jsonl" },
      DATA,
    ],
  },
  {
    name: "backup",
    summary: "copy the account store, the signing secret and the collectable images, while serve runs",
    usage: ["artmarket backup --to DIR [--with-market] [--account-store URL] [--data DIR]"],
    description:
      "Writes a consistent copy of the account store (SQLite's VACUUM INTO, or with --account-store postgres://… every account table read in one REPEATABLE READ transaction into the same account.db format: the running servers go on writing), the signing secret of image URLs and the uploaded collectable originals into DIR, a new or empty directory, with manifest.json (sizes and SHA-256 of every file) written last. --with-market adds market.db and the imported image originals.",
    options: [
      { name: "to", value: "DIR", description: "the backup directory, new or empty (required)" },
      { name: "with-market", description: "also copy market.db and images/orig/ (immutable once built)" },
      ACCOUNT_STORE,
      DATA,
    ],
    examples: ["artmarket backup --to /var/backups/artmarket/2026-01-31", "artmarket backup --to /mnt/backup/am --with-market --data /var/lib/artmarket"],
  },
  {
    name: "restore",
    summary: "put a backup back into the data directory or the PostgreSQL account store (the servers stopped)",
    usage: ["artmarket restore --from DIR [--account-store URL] [--data DIR]"],
    description:
      "Checks every file of the backup against its manifest, copies them beside the live ones, then moves the live account store, secret and collectable images (and, for a backup made with --with-market, the market) into pre-restore-<UTC time>/ in the data directory and the restored ones into place. With --account-store postgres://… the backup's account store, collectable images and secret are loaded into PostgreSQL instead, in one transaction that first empties its account tables (any backup, of account.db or of PostgreSQL, restores into either); the data directory then only takes a --with-market backup's market. Refused (exit 2) while a server holds the data directory; a backup that does not match its manifest changes nothing (exit 1).",
    options: [{ name: "from", value: "DIR", description: "the backup directory (required)" }, ACCOUNT_STORE, DATA],
    examples: [
      "artmarket restore --from /var/backups/artmarket/2026-01-31 --data /var/lib/artmarket",
      "artmarket restore --from /var/backups/artmarket/2026-01-31 --account-store postgres://artmarket@db.internal:5432/artmarket",
    ],
  },
  {
    name: "doctor",
    summary: "check the native parts (sqlite-vec, argon2, sharp)",
    usage: ["artmarket doctor [--data DIR]"],
    options: [DATA],
  },
  { name: "version", summary: "print the version", usage: ["artmarket version", "artmarket --version"], options: [] },
  { name: "help", summary: "print this help, or a command's", usage: ["artmarket help [COMMAND]", "artmarket COMMAND --help"], options: [] },
];

const HELP_FLAGS = new Set(["--help", "-h"]);

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** The general help page. */
export function generalHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `artmarket ${version}: on-prem art-market data service`,
    "",
    "Usage:",
    "  artmarket COMMAND [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Options of every command: --help (-h) prints the command's help and does nothing else.",
    "artmarket --version prints the version. `--data` defaults to $ARTMARKET_DATA, else ./data.",
    "Run `artmarket COMMAND --help` for a command's options.",
  ].join("\n");
}

/** A command's help page: usage, description, options with defaults and environment, examples. */
export function commandHelp(spec: CommandSpec): string {
  const lines = ["Usage:", ...spec.usage.map((u) => `  ${u}`), "", spec.description ?? `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`];
  if (spec.options.length) {
    lines.push("", "Options:");
    const label = (o: OptionSpec) => `--${o.name}${o.value ? ` ${o.value}` : ""}`;
    const width = Math.max(...spec.options.map((o) => label(o).length), "-h, --help".length);
    for (const o of spec.options) {
      const extra = [o.default !== undefined ? `default ${o.default}` : "", o.env ? `env ${o.env}` : ""].filter(Boolean).join("; ");
      lines.push(`  ${label(o).padEnd(width)}  ${o.description}${extra ? ` (${extra})` : ""}`);
    }
    lines.push(`  ${"-h, --help".padEnd(width)}  print this help and do nothing else`);
  }
  if (spec.examples?.length) lines.push("", "Examples:", ...spec.examples.map((e) => `  ${e}`));
  return lines.join("\n");
}

/** Options that take a value, in any command (options may come before the command). */
const VALUE_OPTIONS = new Set(COMMANDS.flatMap((c) => c.options.filter((o) => o.value).map((o) => `--${o.name}`)));

/** Where the command word is: the first word that is neither an option nor an option's value. */
function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("-")) return i;
    if (VALUE_OPTIONS.has(word)) i++;
  }
  return -1;
}

export type Parsed = { kind: "help"; text: string } | { kind: "version" } | { kind: "run"; command: string; positionals: string[]; flags: Record<string, string | true> };

/**
 * Parses argv against the declaration. Help and version requests win over everything else (they
 * are found before any option is checked); then every option must be one the command declares,
 * and an option that takes a value must have one.
 */
export function parseCommandLine(argv: readonly string[], version: string): Parsed {
  const first = commandIndex(argv);
  const command = first >= 0 ? argv[first]! : undefined;
  const spec = command === undefined ? undefined : commandSpec(command);
  if (argv.some((w) => HELP_FLAGS.has(w))) {
    if (command !== undefined && !spec) throw new UsageError(`unknown command "${command}" (see artmarket --help)`);
    return { kind: "help", text: spec && spec.name !== "help" ? commandHelp(spec) : generalHelp(version) };
  }
  if (argv.includes("--version") || command === "version") return { kind: "version" };
  if (command === undefined) {
    const option = argv[0];
    if (option !== undefined) throw new UsageError(`unknown option ${option} (see artmarket --help)`);
    return { kind: "help", text: generalHelp(version) };
  }
  if (!spec) throw new UsageError(`unknown command "${command}" (see artmarket --help)`);
  if (spec.name === "help") {
    const after = argv.slice(first + 1);
    const at = commandIndex(after);
    const topic = at < 0 ? undefined : after[at];
    const about = topic === undefined ? undefined : commandSpec(topic);
    if (topic !== undefined && !about) throw new UsageError(`unknown command "${topic}" (see artmarket --help)`);
    return { kind: "help", text: about ? commandHelp(about) : generalHelp(version) };
  }
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    if (i === first) continue;
    const word = argv[i]!;
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    if (!word.startsWith("--")) throw new UsageError(`unknown option ${word} (see artmarket ${spec.name} --help)`);
    const eq = word.indexOf("=");
    const name = eq > 0 ? word.slice(2, eq) : word.slice(2);
    const option = spec.options.find((o) => o.name === name);
    if (!option) throw new UsageError(`unknown option --${name} (see artmarket ${spec.name} --help)`);
    if (eq > 0) {
      flags[name] = word.slice(eq + 1);
      continue;
    }
    if (!option.value) {
      flags[name] = true;
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) throw new UsageError(`option --${name} needs a value (${option.value})`);
    flags[name] = next;
    i++;
  }
  return { kind: "run", command: spec.name, positionals, flags };
}
