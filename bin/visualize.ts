/**
 * Draw the statechart the engine builds for a form:
 *
 *   npm run visualize -- <form.json | example name> [--format mermaid|dot|svg] [--out FILE]
 *
 * Without --format the format follows --out's extension (.svg, .dot, .mmd),
 * else Mermaid; without --out the diagram goes to standard output.
 */
import { writeFileSync } from "node:fs";
import { extname } from "node:path";
import { DIAGRAM_FORMATS, type DiagramFormat, renderDiagram } from "../renderers/graph.js";
import { exampleNames, loadFormFile } from "./form-file.js";

const USAGE = "Usage: npm run visualize -- <form.json | example name> [--format mermaid|dot|svg] [--out FILE]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}\nExamples: ${exampleNames().join(", ")}`);
  process.exit(2);
}

const args = process.argv.slice(2);
let source: string | undefined;
let format: DiagramFormat | undefined;
let out: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--format") {
    const f = args[++i];
    if (!DIAGRAM_FORMATS.includes(f as DiagramFormat)) fail(`Unknown format "${f ?? ""}".`);
    format = f as DiagramFormat;
  } else if (a === "--out") {
    out = args[++i] ?? fail("--out needs a file name.");
  } else if (a.startsWith("--")) {
    fail(`Unknown option ${a}.`);
  } else if (source === undefined) {
    source = a;
  } else {
    fail(`One form at a time (got "${source}" and "${a}").`);
  }
}
if (!source) fail("Which form?");
const fromExtension: Record<string, DiagramFormat> = { ".svg": "svg", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid" };
const chosen = format ?? (out ? fromExtension[extname(out)] : undefined) ?? "mermaid";

const loaded = loadFormFile(source);
if (!loaded.ok) fail(loaded.message);
const text = await renderDiagram(loaded.form.spec, chosen);
if (out) {
  writeFileSync(out, text);
  console.error(`Wrote the ${chosen} diagram of ${loaded.file} to ${out}`);
} else {
  process.stdout.write(text);
}
