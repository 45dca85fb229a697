/**
 * npm run build: dist/, the extension as Pi loads it, made from the sources.
 * With --check, write nothing and fail when dist/ differs from what the
 * sources make (CI runs that).
 *
 * Pi loads extensions through jiti, which transforms and resolves every file
 * on its own, one by one: tens of TypeScript modules cost hundreds of
 * milliseconds at every start. So Pi is given a few files instead:
 *
 * - `dist/pi-formchart/index.ts`, the file Pi loads (Pi lists an extension by
 *   the folder of its index file: "pi-formchart"): it imports the names the sources use
 *   from Pi's own packages and hands them to `formchart.cjs`. It is
 *   TypeScript so that Pi's loader transforms it and resolves those imports
 *   to Pi's own copies (an ES module `.js` in this `"type": "module"`
 *   package would be imported by Node directly, resolving them to whatever
 *   copies lie in node_modules);
 * - `dist/formchart.cjs`, tools/index.ts and everything it imports statically
 *   (the tool definitions, commands, events), loaded with Node's own
 *   `require`: no transform, no cache to warm;
 * - one file per chunk of `LAZY`, loaded on first use: `dist/engine.cjs`
 *   (the first check or form: the statechart, the terminal UI, xstate, and
 *   every tool schema compiled ahead of time by ajv's standalone code
 *   generation) and `dist/review.cjs` (the first `/formchart review`);
 * - `dist/review-client.js`, the review page's browser script
 *   (renderers/review/client/), which every review page inlines or links.
 *
 * re2js, @viz-js/viz, ajv and ajv-formats (for schemas not compiled here)
 * stay dependencies, required on first use. `import.meta.url` in a bundled
 * module is the URL of its source file, which the package ships: files read
 * beside a module and packages required from it are found as from the
 * sources. The sources stay what jest, tsx and `npm start` run.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { type BuildOptions, build, type Plugin } from "esbuild";
import ts from "typescript";
import { CLIENT_FILE, clientHeader, clientSourcesHash } from "../renderers/review/assets.js";
import { AJV_OPTIONS, schemasToPrecompile } from "../schemas/validate.js";
import { SOURCES_FILE, sourcesManifest } from "./dist-sources.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "dist");
/** The entry Pi loads, relative to dist/ (package.json's `pi.extensions` names it). */
export const ENTRY = "pi-formchart/index.ts";
/** What `import from "pi-formchart"` loads, relative to dist/ (package.json's `exports` names it). */
export const API_ENTRY = "api.ts";
/** The folders the extension is made of (scripts, bin and tests are not part of it). */
const SOURCE_FOLDERS = ["tools", "renderers", "machines", "schemas"];
/** Pi's own packages: an extension must use Pi's copies, never bundle its own. */
const HOST = /^(@earendil-works\/pi-(ai|agent-core|coding-agent|tui)|typebox|@sinclair\/typebox)(\/.*)?$/;
/**
 * The name the entry imports a host package by. Pi 1.x's loader maps both its
 * own `@earendil-works/*` names and the older `@mariozechner/*` ones to its
 * copies; Pi 0.73's knows only the older names. So the entry asks for those,
 * and one file loads in both.
 */
const entryName = (id: string) => id.replace(/^@earendil-works\//, "@mariozechner/");
/** Stands for a namespace import (`import * as x`): the whole module is handed over. */
const WHOLE = "*";

interface Lazy {
  /** The module, relative to the project. */
  source: string;
  /** The file it is bundled into: `dist/<chunk>.cjs`. */
  chunk: string;
  /** Its name among the chunk's exports. */
  name: string;
  /**
   * The registration imports it statically, for functions only: each
   * exported function is a stub there that loads the chunk when first
   * called (the build checks that registering calls none of them). Without
   * this the module must be imported with `import()`.
   */
  functions?: true;
}

/** What loads on first use, not when Pi starts. */
export const LAZY: Lazy[] = [
  { source: "tools/engine/index.ts", chunk: "engine", name: "engine" },
  { source: "renderers/review/page.ts", chunk: "review", name: "reviewPage" },
  // What the schemas run once a tool is called: the compiled validators, the elicitation checks, safe regexes.
  { source: "schemas/precompiled.ts", chunk: "engine", name: "precompiled", functions: true },
  { source: "schemas/elicit.ts", chunk: "engine", name: "elicitSchema", functions: true },
  { source: "schemas/patterns.ts", chunk: "engine", name: "patterns", functions: true },
];
const CHUNKS = [...new Set(LAZY.map((l) => l.chunk))];

const GENERATED = "Generated by `npm run build` from the sources; edit those, not this file.";

/** The TypeScript files of the source folders, subfolders too (each is read for its imports of Pi's packages). */
const sourceFiles = () =>
  SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .sort()
      .map((file) => `${folder}/${file.split("\\").join("/")}`),
  );

/** The names the sources import from each of Pi's packages (values only: types are erased). */
function hostImports(): Map<string, string[]> {
  const names = new Map<string, Set<string>>();
  for (const path of sourceFiles()) {
    const source = ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest);
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
      if (ts.isNamespaceImport(bindings)) {
        const set = names.get(specifier.text) ?? new Set();
        set.add(WHOLE);
        names.set(specifier.text, set);
      } else
        for (const element of bindings.elements) {
          if (element.isTypeOnly) continue;
          const set = names.get(specifier.text) ?? new Set();
          set.add((element.propertyName ?? element.name).text);
          names.set(specifier.text, set);
        }
    }
  }
  return new Map([...names].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => [id, [...set].sort()]));
}

/** Pi's packages, as the names `__host(id)` hands over at load. */
function hostPlugin(names: Map<string, string[]>): Plugin {
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

function lazyOf(path: string): Lazy | undefined {
  const rel = relative(ROOT, path).split("\\").join("/");
  return LAZY.find((l) => l.source === rel);
}

/** The functions a module exports (declarations, and constants holding an arrow or function expression). */
function exportedFunctions(source: string): string[] {
  const file = ts.createSourceFile(source, readFileSync(join(ROOT, source), "utf8"), ts.ScriptTarget.Latest);
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!exported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name) names.push(statement.name.text);
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (
          ts.isIdentifier(d.name) &&
          d.initializer &&
          (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
        )
          names.push(d.name.text);
  }
  return names;
}

/**
 * The lazy modules of other chunks are reached through `__lazy(chunk)`,
 * which requires `dist/<chunk>.cjs` once. In the registration (`chunk`
 * undefined) a module without `functions` must be imported with `import()`.
 */
const lazyPlugin = (chunk?: string): Plugin => ({
  name: "lazy",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const lazy = lazyOf(resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")));
      // A chunk bundles what it imports itself, but loads other chunks' modules through `__lazy`.
      if (!lazy || lazy.chunk === chunk || (chunk !== undefined && lazy.functions)) return undefined;
      if (chunk === undefined && !lazy.functions && args.kind !== "dynamic-import")
        return { errors: [{ text: `${lazy.source} loads on first use: import it with import(), not statically` }] };
      return { path: lazy.source, namespace: "lazy" };
    });
    b.onLoad({ filter: /.*/, namespace: "lazy" }, (args) => {
      const lazy = LAZY.find((l) => l.source === args.path)!;
      const from = `__lazy(${JSON.stringify(lazy.chunk)}, ${JSON.stringify(lazy.source)}).${lazy.name}`;
      const contents = lazy.functions
        ? exportedFunctions(lazy.source)
            .map((f) => `export function ${f}(...args) {\n  return ${from}.${f}(...args);\n}\n`)
            .join("")
        : `module.exports = ${from};\n`;
      return { contents, loader: "js" };
    });
  },
});

/** `import.meta.url` of a project module: the URL of its source file, relative to dist/. */
const moduleUrlPlugin: Plugin = {
  name: "module-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const rel = relative(ROOT, args.path).split("\\").join("/");
      if (rel.startsWith("..") || rel.startsWith("node_modules/")) return undefined;
      const contents = readFileSync(args.path, "utf8").replace(
        /\bimport\.meta\.url\b/g,
        `__moduleUrl(${JSON.stringify(rel)})`,
      );
      return { contents, loader: "ts" };
    });
  },
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** ajv's standalone code for every schema the tools check, looked up by the hash of the schema's JSON. */
function validatorsModule(): { code: string; table: string } {
  // In the order of their JSON, not of the modules that made them: what else a process imported first changes nothing.
  const schemas = [...new Map(schemasToPrecompile().map((s) => [JSON.stringify(s), s]))]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => s);
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  schemas.forEach((schema, i) => {
    ajv.addSchema(schema, `schema${i}`);
  });
  const code = standalone.default(ajv, Object.fromEntries(schemas.map((_, i) => [`validate${i}`, `schema${i}`])));
  const entries = schemas.map((s, i) => `  [${JSON.stringify(sha256(JSON.stringify(s)))}, validate${i}]`);
  const table = [
    `import { createHash } from "node:crypto";`,
    `import { ${schemas.map((_, i) => `validate${i}`).join(", ")} } from "formchart:validators-code";`,
    `const compiled = new Map([\n${entries.join(",\n")},\n]);`,
    `export function precompiledValidator(schemaJson) {`,
    `  return compiled.get(createHash("sha256").update(schemaJson).digest("hex"));`,
    `}`,
    "",
  ].join("\n");
  return { code, table };
}

const validatorsPlugin = (validators: { code: string; table: string }): Plugin => ({
  name: "validators",
  setup(b) {
    b.onResolve({ filter: /^formchart:validators-code$/ }, () => ({ path: "code", namespace: "validators" }));
    b.onResolve({ filter: /precompiled(\.js|\.ts)?$/ }, (args) =>
      lazyOf(resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")))?.name === "precompiled"
        ? { path: "table", namespace: "validators" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "validators" }, (args) => ({
      contents: args.path === "code" ? validators.code : validators.table,
      loader: "js",
      resolveDir: ROOT,
    }));
  },
});

/**
 * A CommonJS file whose export is `(host, lazy?) => exports`: Pi's packages
 * come in as an argument, and the registration hands its chunk loader to
 * each chunk, so every chunk is loaded once and shared.
 */
function wrapped(name: string): Pick<BuildOptions, "banner" | "footer"> {
  return {
    banner: {
      js: [
        `"use strict";`,
        `// ${GENERATED}`,
        // In parentheses: V8 then compiles the body at once instead of parsing it twice.
        `module.exports = (function ${name}(__host, __lazy) {`,
        `var module = { exports: {} }, exports = module.exports;`,
        `var __moduleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, "..", file)).href;`,
        `if (!__lazy) {`,
        `  var __chunks = {};`,
        `  __lazy = (chunk) => (__chunks[chunk] ??= require("./" + chunk + ".cjs")(__host, __lazy));`,
        `}`,
      ].join("\n"),
    },
    footer: { js: "return module.exports;\n});" },
  };
}

const COMMON: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  charset: "utf8",
  // Smaller files compile faster, and Node compiles this at every start; read the sources, not this.
  minify: true,
  metafile: true,
  write: false,
  logLevel: "warning",
  external: ["ajv", "ajv-formats", "re2js", "@viz-js/viz"],
};

function outputText(result: { outputFiles?: Array<{ text: string }> }): string {
  const file = result.outputFiles?.[0];
  if (!file) throw new Error("esbuild wrote nothing");
  return file.text;
}

/** The project files and packages a bundle holds, relative to the project. */
function inputsOf(result: { metafile?: { inputs: Record<string, unknown> } }): string[] {
  return Object.keys(result.metafile?.inputs ?? {}).sort();
}

export interface Dist {
  /** The files of dist/, by name. */
  files: Map<string, string>;
  /** What each bundle holds: source files and package files, relative to the project. */
  inputs: Map<string, string[]>;
}

/**
 * How the entry loads formchart.cjs: compiled with V8's code cache when a
 * valid one is at hand (made after the first start, kept per user in the
 * temporary directory, where Pi's loader keeps its own transforms), so Node
 * skips most of the parsing and compiling at every later start; with
 * Node's `require` when anything about that fails.
 */
const LOAD_REGISTRATION = `
interface Loaded {
  // biome-ignore lint/suspicious/noExplicitAny: what formchart.cjs exports; its types are the sources'
  exports: (host: (id: string) => unknown) => Record<string, any>;
  keepCache(): void;
}

function loadRegistration(): Loaded {
  const load = createRequire(new URL("../formchart.cjs", import.meta.url));
  // Node's own require for the built-in modules: cheaper than importing each through Pi's loader.
  const { readFileSync, statSync, mkdirSync, writeFileSync, renameSync } = load("node:fs") as typeof import("node:fs");
  const { dirname, join } = load("node:path") as typeof import("node:path");
  const file = load.resolve("./formchart.cjs");
  try {
    const source = readFileSync(file, "utf8");
    const uid = process.getuid?.() ?? 0;
    const dir = join((load("node:os") as typeof import("node:os")).tmpdir(), \`pi-formchart-\${uid}\`);
    const crypto = load("node:crypto") as typeof import("node:crypto");
    const key = crypto.createHash("sha256").update(\`\${process.version} \${process.arch}\`).update(source).digest("hex");
    const cacheFile = join(dir, \`\${key.slice(0, 32)}.v8\`);
    let cachedData: Buffer | undefined;
    try {
      // Only a directory of this user's own: a cache is code.
      if (statSync(dir).uid === uid) cachedData = readFileSync(cacheFile);
    } catch {}
    const { Script } = load("node:vm") as typeof import("node:vm");
    const script = new Script(\`(function (module, exports, require, __filename, __dirname) {\${source}\\n})\`, {
      filename: file,
      cachedData,
    });
    const module = { exports: {} as Loaded["exports"] };
    script.runInThisContext()(module, module.exports, load, file, dirname(file));
    const keepCache = () => {
      if (cachedData && !script.cachedDataRejected) return;
      setImmediate(() => {
        try {
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          if (statSync(dir).uid !== uid) return;
          const temp = \`\${cacheFile}.\${process.pid}\`;
          writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
          renameSync(temp, cacheFile);
        } catch {}
      }).unref?.();
    };
    return { exports: module.exports, keepCache };
  } catch {
    return { exports: load(file), keepCache() {} };
  }
}
`;

/**
 * The entry Pi loads: Pi's packages imported here, through Pi's loader,
 * handed to formchart.cjs; the extension, and the values of tools/api.ts for
 * the API's entry.
 */
function entryShim(names: Map<string, string[]>): string {
  const ids = [...names.keys()];
  const local = (id: number, name: string) => `${name} as m${id}_${name}`;
  return [
    "/**",
    " * pi-formchart's extension entry, as Pi loads it (tools/index.ts in the sources).",
    ` * ${GENERATED}`,
    " *",
    " * Pi's loader resolves these imports of Pi's own packages to Pi's copies;",
    " * they are handed to formchart.cjs (tools/index.ts and what it imports",
    " * statically), which is compiled here, from V8's code cache after the",
    " * first start.",
    " */",
    `import { createRequire } from "node:module";`,
    ...ids.map((id, i) =>
      names.get(id)!.includes(WHOLE)
        ? `import * as m${i} from ${JSON.stringify(entryName(id))};`
        : `import { ${names
            .get(id)!
            .map((n) => local(i, n))
            .join(", ")} } from ${JSON.stringify(entryName(id))};`,
    ),
    LOAD_REGISTRATION,
    "const host: Record<string, unknown> = {",
    ...ids.map((id, i) =>
      names.get(id)!.includes(WHOLE)
        ? `  ${JSON.stringify(id)}: m${i},`
        : `  ${JSON.stringify(id)}: { ${names
            .get(id)!
            .map((n) => `${n}: m${i}_${n}`)
            .join(", ")} },`,
    ),
    "};",
    "const registration = loadRegistration();",
    "const entry = registration.exports((id: string) => host[id]);",
    "export const createFormchart = entry.createFormchart;",
    '// What dist/api.ts hands on to another extension\'s `import { elicit } from "pi-formchart"`.',
    ...apiExports().map((name) => `export const ${name} = entry.${name};`),
    "",
    "export default function formchart(pi: unknown): void {",
    "  entry.default(pi);",
    "  registration.keepCache();",
    "}",
    "",
  ].join("\n");
}

/** The values tools/api.ts exports (what another extension imports by the package's name). */
export function apiExports(): string[] {
  const path = "tools/api.ts";
  const file = ts.createSourceFile(path, readFileSync(join(ROOT, path), "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${path}: export the names one by one ({ a, b })`);
    for (const element of clause.elements) if (!element.isTypeOnly) names.push(element.name.text);
  }
  return names.sort();
}

/**
 * `import { elicit } from "pi-formchart"` in another extension: the values
 * the extension's entry takes from the registration bundle, so they load
 * through Pi's loader, with Pi's packages mapped in Pi 0.73 as in 1.x. Its
 * types are the sources' (package.json's `types` condition names tools/api.ts).
 */
function apiShim(): string {
  const from = `./${relative(dirname(join(DIST, API_ENTRY)), join(DIST, ENTRY))
    .split("\\")
    .join("/")}`;
  return [
    "/**",
    " * pi-formchart's API for other extensions, as Pi's loader reads it (tools/api.ts in the sources).",
    ` * ${GENERATED}`,
    " */",
    `export { ${apiExports().join(", ")} } from ${JSON.stringify(from)};`,
    "",
  ].join("\n");
}

/**
 * Load the registration bundle as the entry does and register with a
 * stand-in Pi, every chunk refused: a function stub of `LAZY` called while
 * registering would load a chunk at every start, so the build stops there,
 * naming the module.
 */
async function checkRegistration(files: Map<string, string>, names: Map<string, string[]>): Promise<void> {
  const cache = join(ROOT, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  // Inside the project, so that the bundle's own requires resolve as from dist/.
  const dir = mkdtempSync(join(cache, "formchart-build-"));
  try {
    for (const [name, content] of files) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const host = new Map<string, unknown>();
    for (const id of names.keys()) host.set(id, await import(id));
    const refuse = (chunk: string, module?: string) => {
      throw new Error(
        `registering the tools calls into ${module ?? chunk}, which loads dist/${chunk}.cjs: ` +
          "import only what runs once a tool is called from it, or take it off LAZY (scripts/build.ts)",
      );
    };
    const load = createRequire(import.meta.url)(join(dir, "formchart.cjs")) as (
      host: (id: string) => unknown,
      lazy: typeof refuse,
    ) => { createFormchart(options: { agentDir: string }): (pi: unknown) => void };
    const noop = () => {};
    const pi = new Proxy(
      { events: { on: () => noop, emit: noop } },
      { get: (t, k) => (k in t ? t[k as "events"] : noop) },
    );
    load((id) => host.get(id), refuse).createFormchart({ agentDir: dir })(pi);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The review page's browser script, as one readable file for a page's `<script>` (not minified: a reviewer may read it). */
async function reviewClient(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["renderers/review/client/main.ts"],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    charset: "utf8",
    legalComments: "none",
    write: false,
    logLevel: "warning",
  });
  return `${clientHeader(clientSourcesHash())}\n${outputText(result)}`;
}

export async function buildDist(): Promise<Dist> {
  // Importing the entry makes every checker, so every schema to compile is known.
  await import("../tools/index.js");
  await import("../tools/engine/index.js");
  const names = hostImports();
  const registration = await build({
    ...COMMON,
    entryPoints: ["tools/index.ts"],
    plugins: [hostPlugin(names), lazyPlugin(), moduleUrlPlugin],
    ...wrapped("formchart"),
  });
  const validators = validatorsModule();
  const chunks = new Map<string, Awaited<ReturnType<typeof build>>>();
  for (const chunk of CHUNKS) {
    const own = LAZY.filter((l) => l.chunk === chunk);
    chunks.set(
      chunk,
      await build({
        ...COMMON,
        stdin: {
          contents: own.map((l) => `export * as ${l.name} from "./${l.source}";`).join("\n"),
          resolveDir: ROOT,
          sourcefile: `${chunk}.ts`,
          loader: "ts",
        },
        plugins: [
          hostPlugin(names),
          ...(own.some((l) => l.name === "precompiled") ? [validatorsPlugin(validators)] : []),
          lazyPlugin(chunk),
          moduleUrlPlugin,
        ],
        ...wrapped(chunk),
      }),
    );
  }
  const files = new Map([
    [ENTRY, entryShim(names)],
    [API_ENTRY, apiShim()],
    ["formchart.cjs", outputText(registration)],
    ...[...chunks].map(([chunk, result]): [string, string] => [`${chunk}.cjs`, outputText(result)]),
    [relative(DIST, fileURLToPath(CLIENT_FILE)), await reviewClient()],
  ]);
  await checkRegistration(files, names);
  const inputs = new Map([
    ["formchart.cjs", inputsOf(registration)],
    ...[...chunks].map(([chunk, result]): [string, string[]] => [`${chunk}.cjs`, inputsOf(result)]),
  ]);
  // What dist/ is made from: the project files bundled, those read for Pi's imports, the build and the locked packages.
  const own = [...inputs.values()]
    .flat()
    .filter((f) => !f.startsWith("node_modules/") && !f.startsWith("..") && existsSync(join(ROOT, f)));
  files.set(SOURCES_FILE, sourcesManifest(ROOT, [...own, ...sourceFiles(), "scripts/build.ts", "package-lock.json"]));
  return { files, inputs };
}

/** The files of dist/ that differ from `files` (or are missing), and files there the build does not make. */
export function staleFiles(files: Map<string, string>): { stale: string[]; extra: string[] } {
  const stale = [...files]
    .filter(([name, content]) => {
      const path = join(DIST, name);
      return !existsSync(path) || readFileSync(path, "utf8") !== content;
    })
    .map(([name]) => name);
  const extra = existsSync(DIST)
    ? readdirSync(DIST, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(DIST, join(entry.parentPath, entry.name)))
        .filter((f) => !files.has(f))
    : [];
  return { stale, extra };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const { files } = await buildDist();
  const { stale, extra } = staleFiles(files);
  const sizes = [...files].map(([name, content]) => `${name} ${(Buffer.byteLength(content) / 1024).toFixed(1)} KiB`);
  if (check) {
    if (stale.length || extra.length) {
      const what = [...stale, ...extra.map((f) => `${f} (not made by the build)`)].join(", ");
      console.error(`dist/ differs from what the sources make: ${what}. Run npm run build.`);
      process.exit(1);
    }
    console.log(`dist/ is what the sources make (${sizes.join(", ")}).`);
  } else {
    mkdirSync(DIST, { recursive: true });
    for (const name of stale) {
      const path = join(DIST, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(`${path}.tmp`, files.get(name)!);
      renameSync(`${path}.tmp`, path);
    }
    for (const name of extra) rmSync(join(DIST, name));
    console.log(`dist/: ${sizes.join(", ")}${stale.length || extra.length ? "" : " (unchanged)"}`);
  }
  process.exit(0);
}
