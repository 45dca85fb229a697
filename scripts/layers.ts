/**
 * The layering of docs/architecture.md, as data, and a check of every import
 * against it (static, dynamic and type-only imports alike, read with
 * TypeScript's own pre-parser).
 *
 *   tools → renderers → machines → schemas, and tools → machines, schemas
 *
 * schemas/ stands alone; machines/ knows no terminal; renderers/ knows no
 * Pi tool API; nothing outside the tests imports test code. Inside
 * renderers/, the review page (renderers/review/) may draw the terminal
 * view's screens (renderers/terminal/), but the terminal view never imports
 * the review page; the page's browser script (renderers/review/client/)
 * imports nothing but itself: no Node, no packages. Inside tools/, only the
 * engine (tools/engine/, what a call runs) imports the terminal view: what
 * Pi loads at start (tools/*.ts) uses renderers/text.ts and theme.ts only.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface Layer {
  /** Folders this layer may import from (its own included). */
  folders: string[];
  /** Packages it may import (`node:` built-ins are always allowed). */
  packages: string[];
}

const PI_TUI = "@earendil-works/pi-tui";

export const LAYERS: Record<string, Layer> = {
  schemas: { folders: ["schemas"], packages: ["ajv", "ajv-formats", "re2js", "typebox"] },
  // randexp draws the route search's typed answers from patterns (renderers/inspect/samples.ts).
  // @xstate/graph is the tests' oracle for the route search (__tests__/paths-oracle.test.ts), not the machines'.
  machines: { folders: ["machines", "schemas"], packages: ["xstate", "memoize-one"] },
  renderers: {
    folders: ["renderers", "machines", "schemas"],
    packages: [PI_TUI, "xstate", "@viz-js/viz", "@xterm/headless", "@xterm/addon-serialize", "diff", "randexp", "uqr"],
  },
  tools: {
    folders: ["tools", "renderers", "machines", "schemas"],
    packages: ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", PI_TUI, "typebox", "proper-lockfile"],
  },
  bin: { folders: ["bin", "tools", "renderers", "machines", "schemas"], packages: [PI_TUI] },
  scripts: {
    folders: ["scripts", "bin", "tools", "renderers", "machines", "schemas"],
    packages: ["*"],
  },
};

/**
 * Folders inside a layer with rules of their own, the innermost first: a
 * file there follows its folder's rule instead of its layer's (`folders`
 * may then name folders inside a layer, and `node:` built-ins are refused
 * when `builtins` is false).
 */
export const INNER: Record<string, Layer & { builtins?: false }> = {
  "renderers/review/client": { folders: ["renderers/review/client"], packages: [], builtins: false },
  "renderers/web/client": { folders: ["renderers/web/client"], packages: [], builtins: false },
};

/** Folders that the rest of their own layer must not import (other layers may, as their rules say). */
export const CLOSED = ["renderers/review"];

/**
 * Folders that, inside one layer, only one of its folders may import:
 * `folder` is open to `only` and closed to the rest of `layer` (other
 * layers import it as their own rules say).
 */
export const RESERVED: { folder: string; layer: string; only: string; why: string }[] = [
  {
    folder: "renderers/terminal",
    layer: "tools",
    only: "tools/engine",
    why: "what Pi loads at start never loads the terminal view",
  },
];

export interface Violation {
  file: string;
  specifier: string;
  reason: string;
}

/** Every module specifier a source imports: `import`, `export … from`, `import()` and `import type`. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Whether `path` (`/` separated) is `folder` or lies inside it. */
const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The violations of one file's imports, `file` relative to the project root. */
export function checkImports(file: string, specifiers: string[]): Violation[] {
  const path = file.split(/[\\/]/).join("/");
  const top = path.split("/")[0];
  const inner = Object.keys(INNER).find((f) => within(path, f));
  const folder = inner ?? top;
  const layer = inner ? INNER[inner] : LAYERS[top];
  if (!layer) return [];
  const out: Violation[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith("node:")) {
      if (inner && INNER[inner].builtins === false)
        out.push({ file, specifier, reason: `${folder}/ runs in the browser: no Node built-ins` });
      continue;
    }
    if (specifier.startsWith(".")) {
      const target = normalize(join(dirname(path), specifier))
        .split(sep)
        .join("/");
      const allowed = layer.folders.find((f) => within(target, f));
      if (!allowed) {
        const named = inner ? target.replace(/\/[^/]*$/, "") : target.split("/")[0];
        out.push({ file, specifier, reason: `${folder}/ may import from ${layer.folders.join(", ")}, not ${named}/` });
        continue;
      }
      const closed = CLOSED.find((c) => within(target, c) && !within(path, c) && within(c, top));
      if (closed) out.push({ file, specifier, reason: `${top}/ outside ${closed}/ may not import ${closed}/` });
      for (const r of RESERVED)
        if (within(target, r.folder) && within(path, r.layer) && !within(path, r.only))
          out.push({ file, specifier, reason: `${r.layer}/ outside ${r.only}/ may not import ${r.folder}/: ${r.why}` });
      continue;
    }
    const name = packageName(specifier);
    if (!layer.packages.includes("*") && !layer.packages.includes(name)) {
      out.push({
        file,
        specifier,
        reason: `${folder}/ may use ${layer.packages.join(", ") || "no packages"}, not ${name}`,
      });
    }
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every violation in the project at `root`. */
export function checkLayers(root: string): Violation[] {
  const base = resolve(root);
  return Object.keys(LAYERS).flatMap((folder) =>
    sources(join(base, folder)).flatMap((path) =>
      checkImports(relative(base, path), importsOf(readFileSync(path, "utf8"))),
    ),
  );
}

/**
 * The import graph of the files given (relative to the project, `/`
 * separated): each file with the project files it imports, relative imports
 * resolved as TypeScript resolves `./x.js` to `./x.ts`. Type-only imports
 * count: a circle of types is still a circle a reader has to hold.
 */
export function importGraph(files: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const targets = importsOf(source)
      .filter((s) => s.startsWith("."))
      .map((s) =>
        normalize(join(dirname(file), s))
          .split(sep)
          .join("/"),
      )
      .flatMap((target) =>
        [target, target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`]
          .filter((t) => files.has(t))
          .slice(0, 1),
      );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle of imports (a strongly connected set of two files or more, or a file importing itself), each sorted. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iteratively deep enough for this project's size.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, index);
    low.set(file, index);
    index++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/** The project's own source files under the layers' folders, relative to `root`, with their text. */
export function projectSources(root: string): Map<string, string> {
  const base = resolve(root);
  return new Map(
    Object.keys(LAYERS).flatMap((folder) =>
      sources(join(base, folder)).map((path): [string, string] => [
        relative(base, path).split(sep).join("/"),
        readFileSync(path, "utf8"),
      ]),
    ),
  );
}

/** What Pi loads at start: the extension's entry and what it imports, never through `import()`. */
export const START_ENTRY = "tools/index.ts";
/** The one module at start that may load anything on demand (`import()`): the doors. */
export const START_DOORS = "tools/on-demand.ts";
/** What Pi's start may reach of the project: tools/ (not its engine), the schemas, and the renderers' text and theme. */
const START_MAY_REACH = /^(tools\/(?!engine\/)[^/]+|schemas\/.+|renderers\/(text|theme)\.ts)$/;

/** A file's value imports, split into static ones and `import()`; type-only imports are erased, so not followed. */
export function valueImports(file: string, source: string): { fixed: string[]; onDemand: string[] } {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest);
  const fixed: string[] = [];
  const onDemand: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly ||
          (node.importClause?.namedBindings &&
            ts.isNamedImports(node.importClause.namedBindings) &&
            !node.importClause.name &&
            node.importClause.namedBindings.elements.every((e) => e.isTypeOnly))
        : node.isTypeOnly;
      if (!typeOnly && ts.isStringLiteral(node.moduleSpecifier)) fixed.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) onDemand.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return { fixed, onDemand };
}

/**
 * The start boundary, over the project's sources (path → text): every file
 * Pi's start loads, following value imports from tools/index.ts, is one
 * START_MAY_REACH allows, and only the doors load anything with `import()`.
 */
/** The files that `entry` loads, following value imports (not `import()`), `entry` included. */
export function loadedBy(files: Map<string, string>, entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of valueImports(file, files.get(file) ?? "").fixed) {
      const target = specifier.startsWith(".") ? resolveFrom(files, file, specifier) : undefined;
      if (target) walk(target);
    }
  };
  walk(entry);
  return seen;
}

/** The project file a relative import names, as TypeScript resolves `./x.js` to `./x.ts`. */
function resolveFrom(files: Map<string, string>, file: string, specifier: string): string | undefined {
  const target = normalize(join(dirname(file), specifier))
    .split(sep)
    .join("/");
  return [target.replace(/\.js$/, ".ts"), target, `${target}.ts`].find((t) => files.has(t));
}

export function startViolations(files: Map<string, string>): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { fixed, onDemand } = valueImports(file, files.get(file) ?? "");
    for (const specifier of onDemand)
      if (file !== START_DOORS)
        out.push({ file, specifier, reason: `what Pi loads at start loads on demand only through ${START_DOORS}` });
    for (const specifier of fixed.filter((s) => s.startsWith("."))) {
      const target = resolveFrom(files, file, specifier);
      if (!target) continue;
      if (!START_MAY_REACH.test(target))
        out.push({ file, specifier, reason: `Pi's start would load ${target}: reach it through ${START_DOORS}` });
      else walk(target);
    }
  };
  walk(START_ENTRY);
  return out;
}

/**
 * What a source does with XState's insides, by its syntax: a field named with
 * a leading underscore read off something other than `this`, or written as a
 * key; an action's `.assignment`; a guard told apart by `"check" in`; a
 * snapshot spread into a new object; a machine's step methods assigned.
 */
export function xstateInsides(source: string): string[] {
  const found: string[] = [];
  const steps = new Set(["transition", "microstep", "getInitialSnapshot"]);
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (name.startsWith("_") && node.expression.kind !== ts.SyntaxKind.ThisKeyword) found.push(`reads ${name}`);
      if (name === "assignment") found.push("reads an action's assignment");
    }
    if (
      (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
      node.name.getText().startsWith("_")
    )
      found.push(`writes ${node.name.getText()}`);
    if (ts.isSpreadAssignment(node)) {
      const spread = node.expression;
      const name = ts.isIdentifier(spread)
        ? spread.text
        : ts.isPropertyAccessExpression(spread)
          ? spread.name.text
          : "";
      if (/snapshot$/i.test(name)) found.push("spreads a snapshot");
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.InKeyword && ts.isStringLiteral(node.left) && node.left.text === "check")
        found.push('tells a guard apart by "check" in');
      if (
        op === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(node.left) &&
        steps.has(node.left.name.text)
      )
        found.push(`replaces ${node.left.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, true));
  return found;
}
