/**
 * The benches' command lines: `--name value` or a bare `--name` (true). With `known`, any other
 * name is an error that lists them.
 */
export function readFlags(argv: readonly string[], known?: readonly string[]): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (!w.startsWith("--")) throw new Error(`unexpected argument "${w}"`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) flags[w.slice(2)] = true;
    else flags[w.slice(2)] = (i++, next);
  }
  if (known) for (const k of Object.keys(flags)) if (!known.includes(k)) throw new Error(`unknown option --${k} (${known.map((n) => `--${n}`).join(", ")})`);
  return flags;
}
