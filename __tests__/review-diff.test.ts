/**
 * The page of a change to a form (`npm run visualize -- --diff OLD NEW`):
 * two versions of the branching example, before and after its Split
 * question was added, and a form compared with itself.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "@jest/globals";
import { loadFormFile } from "../bin/form-file.js";
import { type FormDiff, formDiff, formDiffPage } from "../renderers/review/diff.js";
import type { ReviewForm } from "../renderers/review/page.js";
import { tempAgentDir } from "./helpers/temp.js";

const ROOT = join(import.meta.dirname, "..");
const BEFORE = join(ROOT, "__tests__", "fixtures", "branching-before-split.json");

function form(file: string): ReviewForm {
  const loaded = loadFormFile(file);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form, name: file.replace(/^.*\//, "").replace(/\.json$/, ""), tool: loaded.tool };
}

describe("the changes from branching without Split to branching", () => {
  let diff: FormDiff;
  it("builds", async () => {
    diff = await formDiff(form(BEFORE), form("branching"));
    expect(diff.old).toMatchObject({ questions: 3 });
    expect(diff.new).toMatchObject({ questions: 4 });
  }, 60_000);

  it("names the added question with its condition, and its states", () => {
    expect(diff.questions.added).toEqual([
      "Split (split): Can it be split into smaller pull requests? · options: Yes, by layer, No, it is one piece · shown when Size is 4 or more (4 or 5)",
    ]);
    expect(diff.questions.removed).toEqual([]);
    expect(diff.questions.changed).toEqual([]);
    // Named as the review pages name them; compared by question id (Team was q2, is q3: the same state).
    expect(diff.states.added).toEqual([
      "Split · options (q2.choosing)",
      "Split · discard what was entered? (q2.discarding)",
    ]);
    expect(diff.states.removed).toEqual([]);
  });

  it("lists the keys that lead somewhere new, and the conditions that changed", () => {
    // The keys at the condition's boundary (4, and 3 for Team) are among the keys that lead there.
    expect(diff.edges.added).toContain(
      "Size · options (q1.choosing) → Split · options (q2.choosing): Enter / Tab / → / 4 — when Size is 4 or more (4 or 5)",
    );
    // Team is reached as before, but now past Split.
    expect(diff.edges.added).toContain(
      "Size · options (q1.choosing) → Team · options (q3.choosing): Tab / → / Enter / 1 / 3 — when Size is less than 4 (1, 2 or 3) · skips Split",
    );
    expect(diff.edges.removed).toContain(
      "Size · options (q1.choosing) → Team · options (q2.choosing): Tab / → / Enter / 1 / 3 — when Size is less than 4 (1, 2 or 3)",
    );
  });

  it("lists routes whose keys now end elsewhere, those whose outcome changed first", () => {
    // A size of 4 and Enter submitted the form; now Enter answers Split.
    expect(diff.routes[0]).toEqual({
      events: "4 · Enter",
      old: "Submitted (submitted)",
      new: "Review your answers (review.reviewing)",
      outcome: true,
    });
    const firstSame = diff.routes.findIndex((r) => !r.outcome);
    expect(firstSame).toBeGreaterThan(0);
    expect(diff.routes.slice(firstSame).every((r) => !r.outcome)).toBe(true);
    expect(diff.routesCompared).toBeGreaterThan(diff.routes.length);
  });

  it("names the answer at which behaviour differs", () => {
    expect(diff.decisions).toEqual([
      "Size 4: before → Review your answers (review.reviewing), after → Split · options (q2.choosing)",
    ]);
  });

  it("shows what the model reads on the routes through the added question, before and after", () => {
    const through = diff.text.find((t) => t.what === "after 4 · 1 · Enter");
    expect(through?.old).toBe("(no route ends so)");
    expect(through?.new).toContain('Split: user selected: 1. "Yes, by layer"');
  });

  it("writes all of it into one page that loads nothing", () => {
    const page = formDiffPage(diff);
    expect(page).toContain("Split (split)");
    expect(page).toContain("4 · Enter");
    expect(page).not.toMatch(/<script\b|<link\b|src=/);
    expect(formDiffPage(diff)).toBe(page);
  });
});

describe("the changes from branching to Split shown from a size of 3", () => {
  it("lists the route choosing 3 as changed, and a size of 3 as where behaviour differs", async () => {
    const loaded = JSON.parse(readFileSync(join(ROOT, "examples", "branching.json"), "utf8"));
    loaded.arguments.questions[1].when = "size gte 3";
    const file = join(tempAgentDir(), "branching-from-3.json");
    writeFileSync(file, JSON.stringify(loaded));
    const diff = await formDiff(form("branching"), form(file));
    expect(diff.routes).toContainEqual({
      events: "3",
      old: "Team · options (q3.choosing)",
      new: "Split · options (q2.choosing)",
    });
    expect(diff.decisions).toContain(
      "Size 3: before → Team · options (q3.choosing), after → Split · options (q2.choosing)",
    );
  }, 60_000);
});

describe("a form compared with itself", () => {
  it("has no changes", async () => {
    const diff = await formDiff(form("branching"), form("branching"));
    expect([diff.questions, diff.states, diff.edges]).toEqual([
      { added: [], removed: [], changed: [] },
      { added: [], removed: [] },
      { added: [], removed: [] },
    ]);
    expect([diff.routes, diff.screens, diff.text, diff.decisions]).toEqual([[], [], [], []]);
  }, 60_000);
});

describe("npm run visualize -- --diff", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "bin/visualize.ts", ...args], { cwd: ROOT, encoding: "utf8" });

  it("writes the page to --out, or refuses an --out that is not HTML", () => {
    const dir = tempAgentDir();
    const out = join(dir, "changes.html");
    const written = run("--diff", BEFORE, "branching", "--out", out);
    // Everything about the run, so a failure says why (a signal, a spawn error, what it printed).
    expect({
      status: written.status,
      signal: written.signal,
      error: written.error?.message,
      stderr: written.stderr,
    }).toEqual({
      status: 0,
      signal: null,
      error: undefined,
      stderr: expect.stringMatching(/^Wrote the changes from .* to .*changes\.html\n$/),
    });
    expect(written.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toContain("<h2>Routes that end elsewhere");
    const refused = run("--diff", BEFORE, "branching", "--out", join(dir, "changes.svg"));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--diff writes an HTML page");
    expect(existsSync(join(dir, "changes.svg"))).toBe(false);
    expect(run("--diff", BEFORE).status).toBe(2);
  }, 60_000);
});
