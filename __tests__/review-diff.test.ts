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
import { type FormDiff, formDiff, formDiffPage, ROUTE_SCREENS, routeViews } from "../renderers/review/diff.js";
import { rowText } from "../renderers/review/line-diff.js";
import type { ReviewForm } from "../renderers/review/page.js";
import { escapeHtml } from "../renderers/text.js";
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
      "Size · options (q1.choosing) → Split · options (q2.choosing): Tab / → / Enter / 4 5 — when Size is 4 or more (4 or 5)",
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
    // The others leave both forms open: what the model reads is from Enter pressed until each form closes.
    expect(diff.routes.slice(firstSame).every((r) => !r.outcome && r.elsewhere && r.enters! > 0)).toBe(true);
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

  it("names where behaviour differs: the answer or key at which each changed route's two replays first part", () => {
    const views = routeViews(diff.routes);
    expect(views.differs).toEqual([
      "Size 4: before → Review your answers (review.reviewing), after → Split · options (q2.choosing)",
      // Split is skipped for a size of 1 now, so a submit tells the model one more question was skipped.
      "Enter on Review your answers (review.reviewing): before and after → Submitted (submitted), another result",
      // The search chooses 5 on a route of its own too: it leads to Split as 4 does.
      "Size 5: before → Review your answers (review.reviewing), after → Split · options (q2.choosing)",
    ]);
    expect(diff.routes.find((r) => r.events === "1 · 3 · Enter")).toMatchObject({ elsewhere: false, outcome: true });
    expect(views.elsewhere.length + views.alike.length).toBe(diff.routes.length);
  });

  it("shows what the model reads on the routes through the added question, before and after", () => {
    const { texts } = routeViews(diff.routes);
    const through = texts.find((r) => r.events === "4 · 1 · Enter");
    expect(through?.text?.old).toBe("(the form is still open: nothing reaches the model yet)");
    expect(through?.text?.new).toContain('Split: user selected: 1. "Yes, by layer"');
    // The shortest submit of each form, its keys pressed on both: the old one's leaves the new form open.
    expect(texts[0]).toMatchObject({
      end: "the shortest submit of the form before the change",
      events: "4 · Enter",
      text: { new: "(the form is still open: nothing reaches the model yet)" },
    });
  });

  it("writes all of it into one page that loads nothing", () => {
    const page = formDiffPage(diff);
    expect(page).toContain("Split (split)");
    expect(page).toContain("4 · Enter");
    expect(page).not.toMatch(/<script\b|<link\b|src=/);
    expect(formDiffPage(diff)).toBe(page);
    // A route that ends submitted on both, with another result, is not among those that end elsewhere.
    const section = (id: string) =>
      page.slice(
        page.indexOf(`<section id="${id}">`),
        page.indexOf("</section>", page.indexOf(`<section id="${id}">`)),
      );
    expect(section("routes")).not.toContain(`<span class="keys">1 · 3 · Enter</span>`);
    expect(section("results")).toContain(
      `<span class="keys">1 · 3 · Enter</span><span class="result">the result changed</span><span class="ends">ends in Submitted (submitted) before and after</span>`,
    );
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
    expect(routeViews(diff.routes).differs).toContain(
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

/** The branching example with `change` made to its arguments, written to a temporary file. */
function variant(name: string, change: (args: { questions: Array<Record<string, unknown>> }) => void): ReviewForm {
  const source = JSON.parse(readFileSync(join(ROOT, "examples", "branching.json"), "utf8"));
  change(source.arguments);
  const file = join(tempAgentDir(), `${name}.json`);
  writeFileSync(file, JSON.stringify(source));
  return form(file);
}

describe("the changes from branching to a Size option 3 relabelled `3 (medium)`", () => {
  // No longer a number, so `size lt 4` no longer holds for it: Size 3 now skips Team (and Review).
  let diff: FormDiff;
  let page: string;
  it("builds", async () => {
    const relabelled = variant("relabelled", (args) => {
      (args.questions[0].options as Array<{ label: string }>)[2].label = "3 (medium)";
    });
    diff = await formDiff(form("branching"), relabelled);
    page = formDiffPage(diff);
  }, 60_000);

  it("lists the route choosing 3 as ending elsewhere, and counts Size 3 where behaviour differs", () => {
    expect(diff.routes.find((r) => r.events === "3")).toMatchObject({
      old: "Team · options (q3.choosing)",
      new: "Review your answers (review.reviewing)",
      elsewhere: true,
    });
    const views = routeViews(diff.routes);
    expect(views.differs).toEqual([
      "Size 3 → now 3 (medium): before → Team · options (q3.choosing), after → Review your answers (review.reviewing)",
      "Size 3 → now 3 (medium): before → Review · options (q4.choosing), after → Review your answers (review.reviewing)",
    ]);
    expect(page).toContain('<a href="#decisions">Where behaviour differs: 2</a>');
    expect(page).toContain(`<a href="#routes">Routes that end elsewhere: ${views.elsewhere.length}</a>`);
    expect(page).not.toContain("No answer leads elsewhere");
  });

  it("says what the model receives after it: both forms still open, so Enter is pressed until each closes", () => {
    const route = diff.routes.find((r) => r.events === "3");
    expect(route?.enters).toBeGreaterThan(0);
    expect(route?.text?.old).toContain("Team: user selected: 1. Platform");
    expect(route?.text?.new).toContain("Size: user selected: 3. 3 (medium)");
    expect(page).toContain(
      `<a href="#model-text">What the model receives: another text after ${diff.routes.length} routes</a>`,
    );
    expect(page).toContain("<h3>after 3, then Enter until the form closes");
    // Lines only one text has are marked whole; a line both have, only where it changed.
    expect(page).toContain(
      "<del>Team: user selected: 1. Platform</del>\n<del>Review: user selected: 1. Staff engineer</del>",
    );
    expect(page).toContain("Skipped by conditions: split<ins>, team, review</ins>");
  });

  it("draws the newer chart with Size and Team marked, and no other state", () => {
    const marked = [...(diff.chart ?? "").matchAll(/<g id="([^"]+)" class="node changed"/g)].map((m) => m[1]);
    expect(marked.map((id) => id.replace(/&#45;/g, "-"))).toEqual(["changes-q1_choosing", "changes-q3_choosing"]);
    expect(page).toContain('<section id="changes-chart">');
  });
});

describe("the changes where a typed answer decides", () => {
  it("says the typed answer on a route is a sample", async () => {
    const typed = (when: string) => ({
      questions: [
        {
          id: "colour",
          label: "Colour",
          prompt: "Which colour?",
          options: [{ label: "Red" }, { label: "Green" }],
          allowOther: true,
        },
        { id: "shade", label: "Shade", prompt: "Which shade?", options: [{ label: "Light" }, { label: "Dark" }], when },
      ],
    });
    const file = (name: string, when: string) => {
      const path = join(tempAgentDir(), `${name}.json`);
      writeFileSync(path, JSON.stringify({ tool: "question_branch", arguments: typed(when) }));
      return form(path);
    };
    const diff = await formDiff(
      file("any-but-red", "colour not_equals Red"),
      file("only-green", "colour equals Green"),
    );
    expect(routeViews(diff.routes).differs).toContainEqual(
      expect.stringMatching(
        /^Colour "Blue" \(a sample typed answer\): before → Shade · options \(q2\.choosing\), after → /,
      ),
    );
    expect(formDiffPage(diff)).toContain("is a sample the route search types");
  }, 60_000);
});

describe("the changes to a form of more questions than one chart shows", () => {
  it("draw only the parts of the chart where something changed, marked", async () => {
    const eight = (added: boolean) => ({
      questions: Array.from({ length: 8 }, (_, i) => ({
        id: `topic${i + 1}`,
        prompt: `Question ${i + 1}?`,
        options: [{ label: "Yes" }, { label: "No" }, ...(added && i === 4 ? [{ label: "Maybe" }] : [])],
      })),
    });
    const file = (name: string, added: boolean) => {
      const path = join(tempAgentDir(), `${name}.json`);
      writeFileSync(path, JSON.stringify({ tool: "question", arguments: eight(added) }));
      return form(path);
    };
    const diff = await formDiff(file("eight", false), file("eight-maybe", true));
    const ids = (svg: string, marked: boolean) =>
      [...svg.matchAll(/<g id="([^"]+)" class="node( changed)?"/g)]
        .filter((m) => !!m[2] === marked)
        .map((m) => m[1].replace(/&#45;/g, "-"));
    expect(ids(diff.chart ?? "", true)).toContain("changes-q5_choosing");
    // Question 5's part alone: no other question's state is drawn, only stand-ins for where it leads.
    expect(ids(diff.chart ?? "", false).filter((id) => /changes-q\d/.test(id))).toEqual([]);
    expect(formDiffPage(diff)).toContain("Only the questions where something changed are drawn");
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
    expect([diff.routes, diff.screens]).toEqual([[], []]);
    const page = formDiffPage(diff);
    expect(page).toContain("Where behaviour differs: 0");
    expect(page).toContain("The model reads the same after every route compared.");
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
          elsewhere: true,
          differs: evil,
          outcome: true,
          text: { old: evil, new: `${evil}!` },
          end: evil,
          oldRows: rows,
          newRows: rows,
        },
        { events: evil, old: evil, new: evil, elsewhere: false, differs: `${evil}.`, text: { old: evil, new: "" } },
      ],
      routesCompared: 2,
      pages: { old: evil, new: evil },
      chart: "<svg></svg>",
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
      stderr: expect.stringMatching(
        /^Wrote the review pages of both forms to .*changes\.before\.html and .*changes\.after\.html\nWrote the changes from .* to .*changes\.html\n$/,
      ),
    });
    expect(written.stdout).toBe("");
    const page = readFileSync(out, "utf8");
    expect(page).toContain("<h2>Routes that end elsewhere");
    // The review pages of both forms, beside it and linked from it.
    expect(page).toContain('<a href="changes.before.html">before the change (branching-before-split)</a>');
    expect(page).toContain('<a href="changes.after.html">after the change (branching)</a>');
    expect(readFileSync(join(dir, "changes.before.html"), "utf8")).toContain("<h1>branching-before-split");
    expect(readFileSync(join(dir, "changes.after.html"), "utf8")).toContain('id="review-data"');
    const refused = run("--diff", BEFORE, "branching", "--out", join(dir, "changes.svg"));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--diff writes an HTML page");
    expect(existsSync(join(dir, "changes.svg"))).toBe(false);
    expect(run("--diff", BEFORE).status).toBe(2);
  }, 60_000);
});
