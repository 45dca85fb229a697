/**
 * Draw the statechart the engine builds for a form, or write its review page:
 *
 *   npm run -s visualize -- <form.json | example name> [--format mermaid|dot|svg|html] [--out FILE]
 *
 * Without --format the format follows --out's extension (.svg, .dot, .mmd,
 * .html), else Mermaid; without --out the result goes to standard output
 * (npm's `-s` keeps npm's own lines out of it). `html` is the review page:
 * one self-contained file with the statechart, the screen in every state,
 * the keys on every edge, every route and what the model receives.
 */
import { accessSync, constants, statSync, writeFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { DIAGRAM_FORMATS, type DiagramFormat, renderDiagram } from "../renderers/graph.js";
import { visibleControls } from "../renderers/text.js";
import { exampleNames, loadFormFile, terminalLine } from "./form-file.js";

type Format = DiagramFormat | "html";
const FORMATS: readonly Format[] = [...DIAGRAM_FORMATS, "html"];

const USAGE = `Usage: npm run -s visualize -- <form.json | example name> [--format ${FORMATS.join("|")}] [--out FILE] [--width 60|80|120]
       npm run -s visualize -- --diff OLD.json NEW.json [--out FILE.html]`;

const HELP = `${USAGE}

Draws the statechart of a form file ({"tool": "<name>", "arguments": {...}}, or
bare question arguments) or of an example, or writes its review page.

  --format mermaid|dot|svg   the statechart as text or as an SVG picture
  --format html              the review page: the statechart, the screen in every
                             state, the keys on every edge, every generated route
                             with the coverage, and what the model receives
  --out FILE                 write to FILE (the format follows its extension:
                             .mmd, .dot, .gv, .svg, .html); otherwise standard output
  --width N                  the review page's first screen width (60, 80 or 120)
  --diff OLD NEW             what a change to a form does, as an HTML page: questions,
                             states, keys and conditions added or removed, where
                             behaviour differs, routes that now end elsewhere or with
                             another result, screens that changed, the text the model
                             receives before and after, and the newer chart with what
                             changed marked; with --out, the review pages of both forms
                             beside it (FILE.before.html, FILE.after.html), linked

Examples: ${exampleNames().join(", ")}`;

/** A line to the terminal, with nothing of its input (a name, a path, a file's text) that a terminal acts on. */
function say(line: string): void {
  console.error(terminalLine(line));
}

function fail(message: string): never {
  say(message);
  console.error(`${USAGE}\nExamples: ${exampleNames().join(", ")}`);
  process.exit(2);
}

/** The form in a file or example, and as its review page names it (by the file); when there is none, the end. */
function loadedForm(nameOrPath: string) {
  const loaded = loadFormFile(nameOrPath);
  if (!loaded.ok) fail(loaded.message);
  const name = loaded.file.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
  return { ...loaded, review: { ...loaded.form, name, tool: loaded.tool } };
}

/** Why `file` cannot be written, found before the work of building what goes into it. */
function unwritable(file: string): string | undefined {
  const folder = dirname(resolve(file));
  const kind = (path: string) => {
    try {
      return statSync(path).isDirectory() ? "folder" : "file";
    } catch {
      return undefined;
    }
  };
  if (kind(folder) === undefined) return `Cannot write ${file}: the folder ${folder} does not exist.`;
  if (kind(folder) !== "folder") return `Cannot write ${file}: ${folder} is not a folder.`;
  if (kind(file) === "folder") return `Cannot write ${file}: it is a folder.`;
  try {
    accessSync(kind(file) ? file : folder, constants.W_OK);
  } catch {
    return `Cannot write ${file}: permission denied.`;
  }
  return undefined;
}

/** The result to --out, or to standard output, shown as a terminal shows a file (control characters as pictures). */
function deliver(text: string, out: string | undefined, wrote: string): void {
  if (!out) {
    process.stdout.write(visibleControls(text));
    return;
  }
  writeFileSync(out, visibleControls(text));
  say(`${wrote} to ${out}`);
}

async function main(args: readonly string[]): Promise<void> {
  let source: string | undefined;
  let format: Format | undefined;
  let out: string | undefined;
  let width: number | undefined;
  let diff: [string, string] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") {
      process.stdout.write(`${HELP}\n`);
      process.exit(0);
    } else if (a === "--format") {
      const f = args[++i];
      if (!FORMATS.includes(f as Format)) fail(`Unknown format "${f ?? ""}".`);
      format = f as Format;
    } else if (a === "--out") {
      out = args[++i] ?? fail("--out needs a file name.");
    } else if (a === "--diff") {
      const [before, after] = [args[++i], args[++i]];
      if (!before || !after || before.startsWith("--") || after.startsWith("--"))
        fail("--diff needs two forms: the one before the change and the one after.");
      diff = [before, after];
    } else if (a === "--width") {
      const w = Number(args[++i]);
      if (![60, 80, 120].includes(w)) fail(`--width is 60, 80 or 120 (got "${args[i] ?? ""}").`);
      width = w;
    } else if (a.startsWith("--")) {
      fail(`Unknown option ${a}.`);
    } else if (source === undefined) {
      source = a;
    } else {
      fail(`One form at a time (got "${source}" and "${a}").`);
    }
  }
  if (diff) {
    if (source) fail(`--diff compares two forms; "${source}" is one too many.`);
    if (format && format !== "html") fail("--diff writes an HTML page.");
    if (out && ![".html", ".htm"].includes(extname(out).toLowerCase()))
      fail("--diff writes an HTML page: --out FILE.html.");
    const sides = diff.map((file) => loadedForm(file).review);
    const problem = out && unwritable(out);
    if (problem) fail(problem);
    const { formDiff, formDiffPage } = await import("../renderers/review/diff.js");
    const wrote = `Wrote the changes from ${diff[0]} to ${diff[1]}`;
    if (!out) return deliver(formDiffPage(await formDiff(sides[0], sides[1])), out, wrote);
    // Beside the page of the change, the review pages of both forms, which it links to.
    const base = out.replace(/\.html?$/i, "");
    const files = { old: `${base}.before.html`, new: `${base}.after.html` };
    const href = (file: string) => encodeURIComponent(file.replace(/^.*[\\/]/, ""));
    const built = await formDiff(sides[0], sides[1], { old: href(files.old), new: href(files.new) });
    writeFileSync(files.old, visibleControls(built.reviewPages.old));
    writeFileSync(files.new, visibleControls(built.reviewPages.new));
    say(`Wrote the review pages of both forms to ${files.old} and ${files.new}`);
    deliver(formDiffPage(built), out, wrote);
    return;
  }
  if (!source) fail("Which form?");
  const fromExtension: Record<string, Format> = {
    ".svg": "svg",
    ".dot": "dot",
    ".gv": "dot",
    ".mmd": "mermaid",
    ".html": "html",
    ".htm": "html",
  };
  const extension = out ? extname(out).toLowerCase() : "";
  if (out && extension && !fromExtension[extension])
    fail(
      `Cannot write ${extension} files: --out takes ${Object.keys(fromExtension).join(", ")} (a picture as .svg, the review page as .html).`,
    );
  if (out && !extension && !format) fail(`--out ${out} has no extension: add one, or say --format.`);
  if (format && extension && fromExtension[extension] !== format)
    fail(`--format ${format} does not go into a ${extension} file.`);
  const chosen = format ?? (out ? fromExtension[extension] : undefined) ?? "mermaid";

  const problem = out && unwritable(out);
  if (problem) fail(problem);
  const loaded = loadedForm(source);
  let text: string;
  if (chosen === "html") {
    const { reviewPage } = await import("../renderers/review/page.js");
    text = await reviewPage(loaded.review, { width });
  } else {
    text = await renderDiagram(loaded.form.spec, chosen);
  }
  deliver(text, out, `Wrote the ${chosen === "html" ? "review page" : `${chosen} diagram`} of ${loaded.file}`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // Whatever else goes wrong (a form too large to search, a write that fails) is one line, not a stack.
  say(`visualize: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
