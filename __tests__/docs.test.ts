/**
 * docs/api.md is the full reference: every tool, command and event the
 * extension registers with Pi has its place there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { exampleNames } from "../bin/form-file.js";
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
