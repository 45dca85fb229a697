/**
 * Pi's own packages in the build: an extension must use the host's copies,
 * never bundle its own. The bundles take them from `__host(id)`, which the
 * entry (imported through Pi's loader) fills with the names the sources use.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "esbuild";
import ts from "typescript";

/** Pi's packages, by every name the sources may use. */
export const HOST = /^(@earendil-works\/pi-(ai|agent-core|coding-agent|tui)|typebox|@sinclair\/typebox)(\/.*)?$/;

/**
 * The name the entry imports a host package by. Pi 1.x's loader maps both its
 * own `@earendil-works/*` names and the older `@mariozechner/*` ones to its
 * copies; Pi 0.73's knows only the older names. So the entry asks for those,
 * and one file loads in both.
 */
export const entryName = (id: string) => id.replace(/^@earendil-works\//, "@mariozechner/");

/** Stands for a namespace import (`import * as x`): the whole module is handed over. */
export const WHOLE = "*";

/** The folders the extension is made of (scripts, bin and tests are not part of it). */
export const SOURCE_FOLDERS = ["tools", "renderers", "machines", "schemas"];

/** The TypeScript files of the source folders, subfolders too (each is read for its imports of Pi's packages). */
export function sourceFiles(root: string): string[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .sort()
      .map((file) => `${folder}/${file.split("\\").join("/")}`),
  );
}

/** The names the sources import from each of Pi's packages (values only: types are erased). */
export function hostImports(root: string): Map<string, string[]> {
  const names = new Map<string, Set<string>>();
  const add = (id: string, name: string) => names.set(id, (names.get(id) ?? new Set()).add(name));
  for (const path of sourceFiles(root)) {
    const source = ts.createSourceFile(path, readFileSync(join(root, path), "utf8"), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !HOST.test(specifier.text)) continue;
      const fail = (what: string) => {
        throw new Error(`${path}: ${what} from ${specifier.text}; import the names it uses ({ a, b })`);
      };
      if (ts.isExportDeclaration(statement)) {
        if (!statement.isTypeOnly) fail("a re-export");
        continue;
      }
      const clause = statement.importClause;
      if (!clause || clause.isTypeOnly) continue;
      if (clause.name) fail("a default import");
      const bindings = clause.namedBindings;
      if (!bindings) continue;
      if (ts.isNamespaceImport(bindings)) add(specifier.text, WHOLE);
      else
        for (const element of bindings.elements)
          if (!element.isTypeOnly) add(specifier.text, (element.propertyName ?? element.name).text);
    }
  }
  return new Map([...names].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => [id, [...set].sort()]));
}

/** Pi's packages, as the names `__host(id)` hands over at load. */
export function hostPlugin(names: Map<string, string[]>): Plugin {
  return {
    name: "pi-host",
    setup(b) {
      b.onResolve({ filter: HOST }, (args) => {
        if (!names.has(args.path))
          return { errors: [{ text: `${args.path} is imported in a way the build cannot see` }] };
        return { path: args.path, namespace: "pi-host" };
      });
      b.onLoad({ filter: /.*/, namespace: "pi-host" }, (args) => {
        const list = names.get(args.path) ?? [];
        // A module imported whole is handed over as it is (CommonJS, read by property at run time).
        if (list.includes(WHOLE))
          return { contents: `module.exports = __host(${JSON.stringify(args.path)});\n`, loader: "js" };
        const bindings = list.map((n) => `${n} = host.${n}`).join(", ");
        return {
          contents: `const host = __host(${JSON.stringify(args.path)});\nexport const ${bindings};\n`,
          loader: "js",
        };
      });
    },
  };
}
