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
import { type FormDiff, formDiff, formDiffPage, ROUTE_SCREENS } from "../renderers/review/diff.js";
import { escapeHtml } from "../renderers/review/html.js";
import type { ReviewForm } from "../renderers/review/page.js";
import { rowText } from "../renderers/review/word-diff.js";
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

  it("lists the keys that lead somewhere new, and pairs the lines between the same states that changed", () => {
    // Every digit that leads there (4 and 5; 1 to 3 for Team), not only those at the condition's boundary.
    expect(diff.edges.added).toContain(
      "Size · options (q1.choosing) → Split · options (q2.choosing): Enter / Tab / → / 4 5 — when Size is 4 or more (4 or 5)",
    );
    // Team is reached as before, but now past Split: one line that changed, not one removed and one added.
    expect(diff.edges.changed).toContainEqual({
      old: "Size · options (q1.choosing) → Team · options (q2.choosing): Tab / → / Enter / 1–3 — when Size is less than 4 (1, 2 or 3)",
      new: "Size · options (q1.choosing) → Team · options (q3.choosing): Tab / → / Enter / 1–3 — when Size is less than 4 (1, 2 or 3) · skips Split",
    });
    expect(diff.edges.removed).toEqual([]);
  });

  it("lists routes whose keys now end elsewhere, those whose outcome changed first, with both end screens", () => {
    // A size of 4 and Enter submitted the form; now Enter answers Split.
    expect(diff.routes[0]).toMatchObject({
      events: "4 · Enter",
      old: "Submitted (submitted)",
      new: "Review your answers (review.reviewing)",
      outcome: true,
      text: { old: expect.stringContaining("Size: user selected: 4"), new: expect.stringContaining("still open") },
    });
    // The screens the two forms end on, drawn by the real form component: closed, and the review with Split answered.
    const text = (rows?: string[]) => (rows ?? []).map(rowText).join("\n");
    expect(text(diff.routes[0].oldRows)).toContain("Submitted.");
    expect(text(diff.routes[0].newRows)).toMatch(/Review your answers[\s\S]*2\. Split: Yes, by layer/);
    const firstSame = diff.routes.findIndex((r) => !r.outcome);
    expect(firstSame).toBeGreaterThan(0);
    expect(diff.routes.slice(firstSame).every((r) => !r.outcome && !r.text)).toBe(true);
    expect(diff.routesCompared).toBeGreaterThan(diff.routes.length);
    // The first ROUTE_SCREENS carry their screens, any others only their keys.
    expect(diff.routes.map((r) => !!r.oldRows && !!r.newRows)).toEqual(diff.routes.map((_, i) => i < ROUTE_SCREENS));
  });

  it("shows the screens of the added question, and no other screen where the same keys show the same", () => {
    // Review's screen is the same after the same keys (the shortest route into it skips Split in both).
    expect(diff.screens.map((s) => [s.state, s.question, !!s.oldRows, !!s.newRows])).toEqual([
      ["Split · options (q2.choosing)", "added", false, true],
      ["Split · discard what was entered? (q2.discarding)", "added", false, true],
    ]);
    expect(diff.screens[0].newRows?.map(rowText).join("\n")).toContain("Can it be split into smaller pull requests?");
  });

  it("names the answer at which behaviour differs", () => {
    expect(diff.decisions).toEqual([
      "Size 4: before → Review your answers (review.reviewing), after → Split · options (q2.choosing)",
    ]);
  });

  it("shows what the model reads on the routes through the added question, before and after", () => {
    const through = diff.text.find((t) => t.what === "after 4 · 1 · Enter");
    expect(through?.old).toBe("(the form is still open: nothing reaches the model yet)");
    expect(through?.new).toContain('Split: user selected: 1. "Yes, by layer"');
    // The shortest submit of each form, its keys pressed on both: the old one's leaves the new form open.
    expect(diff.text[0]).toMatchObject({
      what: "after the shortest submit of the form before the change (4 · Enter)",
      new: "(the form is still open: nothing reaches the model yet)",
    });
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
    const route = diff.routes.find((r) => r.events === "3");
    expect(route).toMatchObject({ old: "Team · options (q3.choosing)", new: "Split · options (q2.choosing)" });
    expect(route?.outcome).toBeUndefined();
    expect(diff.decisions).toContain(
      "Size 3: before → Team · options (q3.choosing), after → Split · options (q2.choosing)",
    );
    // The question whose condition moved, its screens before and after (the same screens).
    expect(diff.screens.map((s) => [s.state, s.question, !!s.oldRows, !!s.newRows])).toEqual([
      ["Split · options (q2.choosing)", "changed", true, true],
      ["Split · discard what was entered? (q2.discarding)", "changed", true, true],
    ]);
    // On the page: the value that moved, marked word by word; the route's two end screens side by side, each
    // question's prompt marked, and Split now in the tab bar before Team (question 1 of 3, no longer of 2).
    const page = formDiffPage(diff);
    expect(page).toContain("shown when Size is <del>4</del> or more (4 or 5)");
    expect(page).toContain("shown when Size is <ins>3</ins> or more (<ins>3, </ins>4 or 5)");
    const card = page.slice(page.indexOf(`<summary><span class="keys">3</span>`));
    const [before, after] = card.slice(0, card.indexOf("</details>")).split("<h4>after");
    expect(before).toContain("<del>Which team owns the code it touches</del>?");
    expect(before).toContain("1/<del>2</del>");
    expect(after).toContain("<ins>Can it be split into smaller pull requests</ins>?");
    expect(after).toContain("□ <ins>Split </ins>");
    expect(after).toContain("1/<ins>3</ins>");
  }, 60_000);
});

describe("a form compared with itself", () => {
  it("has no changes", async () => {
    const diff = await formDiff(form("branching"), form("branching"));
    expect([diff.questions, diff.states, diff.edges]).toEqual([
      { added: [], removed: [], changed: [] },
      { added: [], removed: [] },
      { added: [], removed: [], changed: [] },
    ]);
    expect([diff.routes, diff.screens, diff.text, diff.decisions]).toEqual([[], [], [], []]);
  }, 60_000);
});

describe("text written by the model on the page of a change", () => {
  it("reaches every part of the page escaped, with no raw control character", () => {
    const evil = `</li></details><script>alert(1)</script>\x1b[31m\u202e`;
    const side = { name: evil, questions: 1, states: 1, routes: 1 };
    const rows = [`<span>${escapeHtml(evil)}</span>`];
    const page = formDiffPage({
      old: side,
      new: side,
      questions: { added: [evil], removed: [evil], changed: [{ old: evil, new: `${evil} more` }] },
      states: { added: [evil], removed: [evil] },
      edges: { added: [evil], removed: [evil], changed: [{ old: evil, new: `new ${evil}` }] },
      screens: [{ state: evil, question: "changed", oldRows: rows, newRows: [...rows, "<span>CTO</span>"] }],
      routes: [
        {
          events: evil,
          old: evil,
          new: evil,
          outcome: true,
          text: { old: evil, new: `${evil}!` },
          oldRows: rows,
          newRows: rows,
        },
        { events: evil, old: evil, new: evil },
      ],
      decisions: [evil],
      routesCompared: 2,
      text: [{ what: evil, old: evil, new: `${evil} after` }],
    });
    expect(page).not.toMatch(/<script|<\/details><script|[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    // Every place that shows it shows it as text: the title, the header, each list, the route, the screens, the texts.
    expect(page.split("&lt;script&gt;").length - 1).toBeGreaterThanOrEqual(20);
  });
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
