/**
 * Command-line flags and environment, parsed once into a frozen object.
 * A bad flag ends the program with a clear message (ConfigError), never a stack trace.
 */
import { resolve } from "node:path";

export class ConfigError extends Error {}

export const SCALES = ["tiny", "small", "medium", "large", "full"] as const;
export type Scale = (typeof SCALES)[number];

export interface Config {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string | null;
}

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
  return resolve(stringFlag(flags, "data") ?? env.ARTMARKET_DATA ?? "./data");
}

export function serveConfig(flags: ParsedArgs["flags"], env: Record<string, string | undefined> = process.env): Config {
  const port = intFlag(flags, "port", 0, 65535) ?? (env.ARTMARKET_PORT ? Number(env.ARTMARKET_PORT) : 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`ARTMARKET_PORT must be a port number`);
  const host = stringFlag(flags, "host") ?? env.ARTMARKET_HOST ?? "127.0.0.1";
  const publicUrl = stringFlag(flags, "public-url") ?? env.ARTMARKET_PUBLIC_URL ?? null;
  if (publicUrl !== null) {
    let url: URL;
    try {
      url = new URL(publicUrl);
    } catch {
      throw new ConfigError(`--public-url must be an absolute http(s) URL, got "${publicUrl}"`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ConfigError(`--public-url must be an http(s) URL, got "${publicUrl}"`);
    }
  }
  return Object.freeze({ dataDir: dataDirFrom(flags, env), port, host, publicUrl: publicUrl?.replace(/\/+$/, "") ?? null });
}
