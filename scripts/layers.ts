/**
 * The layering of docs/architecture.md, as data, and a check of every import
 * against it (static, dynamic and type-only imports alike, read with
 * TypeScript's own pre-parser).
 *
 *   tools → renderers → machines → schemas, and tools → machines, schemas
 *
 * schemas/ stands alone; machines/ knows no terminal; renderers/ knows no
 * Pi tool API; nothing outside the tests imports test code.
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
  machines: { folders: ["machines", "schemas"], packages: ["xstate", "@xstate/graph"] },
  renderers: {
    folders: ["renderers", "machines", "schemas"],
    packages: [PI_TUI, "xstate", "@viz-js/viz", "@xterm/headless", "@xterm/addon-serialize"],
  },
  tools: {
    folders: ["tools", "renderers", "machines", "schemas"],
    packages: ["@earendil-works/pi-coding-agent", "@earendil-works/pi-ai", PI_TUI, "typebox"],
  },
  bin: { folders: ["bin", "tools", "renderers", "machines", "schemas"], packages: [PI_TUI] },
  scripts: {
    folders: ["scripts", "bin", "tools", "renderers", "machines", "schemas"],
    packages: ["*"],
  },
};

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

/** The violations of one file's imports, `file` relative to the project root. */
export function checkImports(file: string, specifiers: string[]): Violation[] {
  const folder = file.split(/[\\/]/)[0];
  const layer = LAYERS[folder];
  if (!layer) return [];
  const out: Violation[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith("node:")) continue;
    if (specifier.startsWith(".")) {
      const target = normalize(join(dirname(file), specifier)).split(sep)[0];
      if (!layer.folders.includes(target)) {
        out.push({ file, specifier, reason: `${folder}/ may import from ${layer.folders.join(", ")}, not ${target}/` });
      }
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
