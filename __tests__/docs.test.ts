/**
 * docs/api.md is the full reference: every tool, command and event the
 * extension registers with Pi has its place there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { EXIT_CODES, exampleNames, loadFormFile } from "../bin/form-file.js";
import { RESERVED_LABELS } from "../schemas/rules.js";
import { TOOL_NAMES } from "../tools/catalog.js";
import { createFormchart } from "../tools/index.js";
import { fakePi } from "./helpers/fake-pi.js";
import { PROJECT_ROOT } from "./helpers/root.js";
import { tempAgentDir } from "./helpers/temp.js";

const api = readFileSync(join(PROJECT_ROOT, "docs", "api.md"), "utf8");
const pi = fakePi();
createFormchart({ agentDir: tempAgentDir() })(pi.api);
const headings = new Set([...api.matchAll(/^## `([^`]+)`$/gm)].map((m) => m[1]));
const eventsTable = api.slice(api.indexOf("## Events"));

describe("docs/api.md covers what is registered", () => {
  it.each([...pi.tools.keys()])("tool %s has a section", (name) => {
    expect(headings.has(name)).toBe(true);
  });

  it.each([...pi.commands.keys()])("command /%s has a section", (name) => {
    expect(headings.has(`/${name}`)).toBe(true);
  });

  it.each(pi.events())("event %s is in the Events table", (event) => {
    expect(eventsTable).toContain(`| \`${event}\` |`);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2 … */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of outsideFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The text with fenced code blocks blanked out (a `#` line in a block is no heading). */
function outsideFences(markdown: string): string {
  let open: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (open === undefined && fence) open = fence;
      else if (
        open !== undefined &&
        fence &&
        fence[0] === open[0] &&
        fence.length >= open.length &&
        !/\S/.test(line.trim().slice(fence.length))
      ) {
        open = undefined;
        return "";
      } else if (open === undefined) return line;
      return "";
    })
    .join("\n");
}

const MARKDOWN = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(PROJECT_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), "utf8");

describe("the Markdown files", () => {
  // A stray fence opens a block that swallows the prose after it: every block here names its language,
  // so a fence without one where a block would open is the stray one.
  it.each(MARKDOWN)("%s opens every code block with its language and closes it", (file) => {
    const lines = read(file).split("\n");
    const problems: string[] = [];
    let open: { fence: string; line: number } | undefined;
    lines.forEach((line, i) => {
      const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (!fence) return;
      const info = fence[2].trim();
      if (!open) {
        open = { fence: fence[1], line: i + 1 };
        if (!info) problems.push(`line ${i + 1}: a code block without a language (a stray fence?)`);
      } else if (fence[1][0] === open.fence[0] && fence[1].length >= open.fence.length && !info) open = undefined;
    });
    if (open) problems.push(`line ${open.line}: the code block is never closed`);
    expect(problems).toEqual([]);
  });

  it.each(MARKDOWN)("%s links only to headings that exist", (file) => {
    const text = outsideFences(read(file));
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)) {
      const [path, anchor] = target.split("#");
      if (/^[a-z]+:/.test(path)) continue;
      const linked = path ? join(file, "..", path) : file;
      if (!linked.endsWith(".md")) continue;
      if (!existsSync(join(PROJECT_ROOT, linked)) || !anchors(read(linked)).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});

describe("the README", () => {
  const readme = read("README.md");

  it("names every form in examples/, and only those", () => {
    const start = readme.indexOf("`examples/` has a\nform of every kind:");
    expect(start).toBeGreaterThan(-1);
    const list = readme.slice(start, readme.indexOf("\n\n", start));
    const named = [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((name) => name !== "examples/");
    expect(named.sort()).toEqual(exampleNames());
  });

  it("starts the checkout's Pi only on a Node that Pi 1.6 accepts", () => {
    // In code blocks and inline code: the checkout's Pi run by npx or by its path gets the machine's Node.
    const code = [...readme.matchAll(/```\w*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]);
    const commands = code.flatMap((block) => block.split("\n")).map((line) => line.replace(/#.*$/, "").trim());
    const bare = commands.filter((line) => /(^|[\s;&|])(npx pi|(\.\/)?node_modules\/\.bin\/pi)\b/.test(line));
    expect(bare.filter((line) => !/scripts\/with-node\.sh (npx )?pi\b/.test(line))).toEqual([]);
    expect(commands).toContain("npm run pi -- -e ./");
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.pi).toMatch(/^scripts\/with-node\.sh pi\b/);
  });
});

/** Each doc's words for how `npm start` ends, by `EXIT_CODES`' names. */
const ENDINGS: Record<keyof typeof EXIT_CODES, string> = {
  submitted: "submit",
  cancelled: "cancel",
  declined: "decline",
  timedOut: "timeout",
  noForm: "invalid input",
};

describe("the docs agree with the code", () => {
  const flat = (file: string) => read(file).replace(/\s+/g, " ");

  it.each(MARKDOWN)("%s lists the reserved option labels as the checks have them", (file) => {
    // From the first label to where the list ends: " are reserved", a parenthesis, a table cell's end.
    for (const [list] of flat(file).matchAll(/`Other`[^()|]*?(?= are reserved| \(|\|)/g)) {
      const named = [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(named.sort()).toEqual([...RESERVED_LABELS].sort());
    }
  });

  it("authoring-questions.md's choice of tool names every tool", () => {
    const doc = read("docs/authoring-questions.md");
    const table = doc.slice(doc.indexOf("## Pick the right tool"), doc.indexOf("\n## ", doc.indexOf("## Pick")));
    const named = [...table.matchAll(/\| `([a-z_]+)` \|$/gm)].map((m) => m[1]);
    expect(named.sort()).toEqual([...TOOL_NAMES].sort());
  });

  it("every doc that gives npm start's exit codes gives them as the demo exits", () => {
    const passages = MARKDOWN.flatMap((file) => [...flat(file).matchAll(/exit code \d on [^)]*/g)].map((m) => m[0]));
    expect(passages.length).toBeGreaterThan(0);
    for (const passage of passages) {
      for (const [ending, code] of Object.entries(EXIT_CODES)) {
        // The words between "<code> on" and the next code name this ending.
        const words = new RegExp(`\\b${code} on ([^0-9]*)`).exec(passage)?.[1] ?? "";
        expect(`${code}: ${words}`).toContain(ENDINGS[ending as keyof typeof EXIT_CODES]);
      }
    }
  });

  it("numbers as option labels stand on their own rows, as authoring-questions.md asks", () => {
    for (const name of exampleNames()) {
      const loaded = loadFormFile(name);
      if (!loaded.ok) throw new Error(loaded.message);
      for (const q of loaded.form.spec.questions) {
        const labels = q.options.map((o) => o.label);
        expect(labels.filter((label) => /^\d+[.)]\s/.test(label))).toEqual([]);
        labels.forEach((label, row) => {
          if (/^\d+$/.test(label)) expect(`${name}: ${label}`).toBe(`${name}: ${row + 1}`);
        });
      }
    }
  });
});
