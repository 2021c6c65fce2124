/**
 * The console's browser code type-checks against the DOM library. The repository's tsconfig has no
 * DOM (the service runs on Bun), so those files start with `// @ts-nocheck` for it; this program
 * checks them as the browser sees them: the line removed, the DOM and ESNext libraries, strict.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const DIR = join(import.meta.dir, "../../src/serve/console");
const NOCHECK = /^\/\/ @ts-nocheck[^\n]*\n/;
/** The files that run in the browser (index.ts runs in the server and is checked by tsc -p .). */
const BROWSER = readdirSync(DIR)
  .filter((f) => f.endsWith(".ts") && f !== "index.ts")
  .map((f) => join(DIR, f));

test("the browser files are marked for the repository's tsc, and only they", () => {
  expect(BROWSER.map((f) => f.slice(DIR.length + 1)).sort()).toEqual([
    "admin.ts",
    "analytics.ts",
    "api.ts",
    "charts.ts",
    "collection.ts",
    "keys.ts",
    "main.ts",
    "notify.ts",
    "sales.ts",
    "ui.ts",
    "usage.ts",
  ]);
  for (const file of BROWSER) expect(readFileSync(file, "utf8")).toMatch(NOCHECK);
  expect(readFileSync(join(DIR, "index.ts"), "utf8")).not.toMatch(NOCHECK);
});

test("the console's browser code has no type error with the DOM library", () => {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = read(name);
    return text !== undefined && name.startsWith(DIR) ? text.replace(NOCHECK, "\n") : text;
  };
  const program = ts.createProgram(BROWSER, options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.replace(DIR, "console")}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  expect(diagnostics).toEqual([]);
}, 60_000);
