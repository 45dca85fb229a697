/**
 * Regenerate docs/machines/: the SVG and Mermaid diagram of every example's
 * statechart. With --check, write nothing and fail when a file is stale.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { renderDiagram } from "../tools/graph.js";

const check = process.argv.includes("--check");
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "machines");
mkdirSync(out, { recursive: true });

const expected = new Map<string, string>();
for (const name of exampleNames()) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  expected.set(`${name}.svg`, await renderDiagram(loaded.form.spec, "svg"));
  expected.set(`${name}.mmd`, await renderDiagram(loaded.form.spec, "mermaid"));
}

const stale: string[] = [];
for (const [file, content] of expected) {
  const path = join(out, file);
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  if (current === content) continue;
  stale.push(file);
  if (!check) writeFileSync(path, content);
}
const extra = readdirSync(out).filter((f) => /\.(svg|mmd)$/.test(f) && !expected.has(f));
if (check) {
  if (stale.length || extra.length) {
    console.error(`docs/machines is stale: ${[...stale, ...extra.map((f) => `${f} (no such example)`)].join(", ")}. Run npm run diagrams.`);
    process.exit(1);
  }
  console.log(`docs/machines is up to date (${expected.size} files).`);
} else {
  console.log(stale.length ? `Wrote ${stale.join(", ")}` : "Nothing to update.");
  if (extra.length) console.log(`Not from any example (left alone): ${extra.join(", ")}`);
}
