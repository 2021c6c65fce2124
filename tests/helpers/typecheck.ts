/**
 * Type-checks programs that exist only in memory, as if their files lay in `dir` (so that imports
 * resolve against the repository's node_modules and files), with the strict options a client's
 * user would have and the DOM library (Blob, File, fetch). Each checker reuses its previous
 * program where it can (the same libraries and types), which makes the second check fast.
 * Diagnostics read `<file relative to names>:<line>: <message>`.
 */
import { join } from "node:path";
import ts from "typescript";

export function virtualTypeChecker(dir: string, names: string = dir): (files: Record<string, string>) => string[] {
  let previous: ts.Program | undefined;
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
  };
  return (files) => {
    const virtual = new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text]));
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile, getSourceFile, directoryExists } = host;
    host.directoryExists = (name) => name === dir || (directoryExists?.call(host, name) ?? true);
    host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
    host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
    host.getSourceFile = (name, target, ...rest) => {
      const text = virtual.get(name);
      return text === undefined ? getSourceFile.call(host, name, target, ...rest) : ts.createSourceFile(name, text, target, true);
    };
    const program = ts.createProgram([join(dir, "program.ts")], options, host, previous);
    previous = program;
    return ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? `${d.file.fileName.slice(names.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
  };
}
