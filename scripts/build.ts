/**
 * npm run build: dist/, the extension as Pi loads it, made from the sources.
 * With --check, write nothing and fail when dist/ differs from what the
 * sources make (CI runs that; the quick loop checks dist/SOURCES.sha256).
 *
 * Pi loads extensions through jiti, which transforms and resolves every file
 * on its own, one by one: tens of TypeScript modules cost hundreds of
 * milliseconds at every start. So Pi is given a few files instead, and they
 * follow from the layout (scripts/build/bundles.ts):
 *
 * - `dist/pi-formchart/index.ts`, the file Pi loads (Pi lists an extension by
 *   the folder of its index file: "pi-formchart"), and `dist/api.ts`, what
 *   `import … from "pi-formchart"` loads (scripts/build/entry.ts);
 * - `dist/formchart.cjs`: tools/index.ts and everything it imports, what
 *   Pi loads at start, with Node's own `require` or V8's code cache;
 * - one file per door of tools/on-demand.ts, loaded on first use:
 *   `dist/engine.cjs` (the statechart, the terminal view, the checks, every
 *   tool schema compiled ahead of time by ajv's standalone code generation,
 *   scripts/build/validators.ts) and `dist/review.cjs` (the review page);
 * - `dist/review-client.js`, the review page's browser script, and
 *   `dist/web-client.js`, the browser tab's (renderers/web/).
 *
 * re2js, randexp, @viz-js/viz, ajv and ajv-formats (for schemas not compiled here),
 * proper-lockfile (the first saved setting) and uqr (the first QR code of a link)
 * stay dependencies, required on first use. `import.meta.url` in a bundled
 * module is the URL of its source file, which the package ships: files read
 * beside a module and packages required from it are found as from the
 * sources. The sources stay what jest, tsx and `npm start` run.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Plugin } from "esbuild";
import { CLIENT_FILE, clientHeader, clientSourcesHash } from "../renderers/review/assets.js";
import { buildBundles, bundlesOf } from "./build/bundles.js";
import { apiExports as apiExportsOf, apiShim, entryShim } from "./build/entry.js";
import { hostImports, hostPlugin, sourceFiles } from "./build/hosts.js";
import { validatorsModule, validatorsPlugin } from "./build/validators.js";
import { SOURCES_FILE, sourcesManifest } from "./dist-sources.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(ROOT, "dist");
/** The entry Pi loads, relative to dist/ (package.json's `pi.extensions` names it). */
export const ENTRY = "pi-formchart/index.ts";
/** What `import from "pi-formchart"` loads, relative to dist/ (package.json's `exports` names it). */
export const API_ENTRY = "api.ts";

/** The values tools/api.ts exports (what another extension imports by the package's name). */
export const apiExports = () => apiExportsOf(ROOT);

/** `import.meta.url` of a project module: the URL of its source file, relative to dist/. */
const moduleUrlPlugin: Plugin = {
  name: "module-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/, namespace: "file" }, (args) => {
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

const COMMON: BuildOptions = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  charset: "utf8",
  // Smaller files compile faster, and Node compiles this at every start; read the sources, not this.
  minify: true,
  logLevel: "warning",
  external: ["ajv", "ajv-formats", "re2js", "@viz-js/viz", "proper-lockfile", "uqr"],
};

export interface Dist {
  /** The files of dist/, by name. */
  files: Map<string, string>;
  /** What each bundle holds: source files and package files, relative to the project. */
  inputs: Map<string, string[]>;
}

function outputText(result: { outputFiles?: Array<{ text: string }> }): string {
  const file = result.outputFiles?.[0];
  if (!file) throw new Error("esbuild wrote nothing");
  return file.text;
}

/** A page's browser script, as one readable file for a page's `<script>` (not minified: a reviewer may read it). */
async function browserScript(entry: string): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    charset: "utf8",
    legalComments: "none",
    write: false,
    logLevel: "warning",
  });
  return outputText(result);
}

export async function buildDist(): Promise<Dist> {
  const bundles = bundlesOf(ROOT);
  // Importing every bundle's entry makes every checker, so every schema to compile is known.
  for (const bundle of bundles) await import(join(ROOT, bundle.entry));
  const names = hostImports(ROOT);
  const validators = validatorsModule();
  const plugins = (): Plugin[] => [hostPlugin(names), validatorsPlugin(ROOT, validators), moduleUrlPlugin];
  const built = await buildBundles(ROOT, bundles, COMMON, plugins);
  const apiFrom = `./${relative(dirname(join(DIST, API_ENTRY)), join(DIST, ENTRY))
    .split("\\")
    .join("/")}`;
  const files = new Map([
    [ENTRY, entryShim(ROOT, names)],
    [API_ENTRY, apiShim(ROOT, apiFrom)],
    ...built.map(({ bundle, text }): [string, string] => [`${bundle.name}.cjs`, text]),
    [
      relative(DIST, fileURLToPath(CLIENT_FILE)),
      `${clientHeader(clientSourcesHash())}\n${await browserScript("renderers/review/client/main.ts")}`,
    ],
    // The browser tab's script (renderers/web/).
    ["web-client.js", await browserScript("renderers/web/client/main.ts")],
  ]);
  const inputs = new Map(built.map(({ bundle, inputs }): [string, string[]] => [`${bundle.name}.cjs`, inputs]));
  // What dist/ is made from: the project files bundled, those read for Pi's imports, the build and the locked packages.
  const own = [...inputs.values()]
    .flat()
    .filter((f) => !f.startsWith("node_modules/") && !f.startsWith("..") && existsSync(join(ROOT, f)));
  const buildFiles = readdirSync(join(ROOT, "scripts", "build")).map((f) => `scripts/build/${f}`);
  files.set(
    SOURCES_FILE,
    sourcesManifest(ROOT, [
      ...new Set([...own, ...sourceFiles(ROOT), "scripts/build.ts", ...buildFiles, "package-lock.json"]),
    ]),
  );
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
