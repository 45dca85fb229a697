/**
 * The review page's content, checked without a browser: the screens are the
 * real screens of each state, the edges carry the keys that take them, the
 * routes are the generated ones and cover the chart, the results are the
 * tool's own text and details, hostile text stays text, and the command-line
 * `/formchart review` writes what it says.
 * (__tests__/e2e/review-page.e2e.test.ts clicks through the pages in Chromium
 * and runs `npm run visualize`.)
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { KeyId } from "@earendil-works/pi-tui";
import { describe, expect, it, jest } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { loadFormFile } from "../bin/form-file.js";
import type { Condition } from "../machines/conditions.js";
import type { FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { normalizeForm } from "../machines/spec.js";
import { formDiagram } from "../renderers/graph.js";
import { missedBy, newCoverage } from "../renderers/inspect/coverage.js";
import { generatePaths } from "../renderers/inspect/paths.js";
import { builtClient, clientHeader, clientSourcesHash } from "../renderers/review/assets.js";
import { reviewChart } from "../renderers/review/chart.js";
import { conditionText, conditionWords } from "../renderers/review/condition-words.js";
import { coveredWords } from "../renderers/review/coverage.js";
import { twinRows } from "../renderers/review/keys.js";
import { keyList, type ReviewModel, reviewModel, reviewPage, scriptJson } from "../renderers/review/page.js";
import { reviewScreen, sendToScreen } from "../renderers/review/replay.js";
import { resolveCursorMarkers, ScreenTable } from "../renderers/review/screens.js";
import { keyName } from "../renderers/terminal/keymap.js";
import { commandOpener, formchartCompletions, registerFormchartCommand, runFormchart } from "../tools/commands.js";
import { showAndKeep } from "../tools/engine/run.js";
import { qwizardCompletions } from "../tools/qwizard-command.js";
import { FormchartState } from "../tools/state.js";
import { fakePi, fakeUiContext } from "./helpers/fake-pi.js";
import { tempAgentDir } from "./helpers/temp.js";

function example(name: string) {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form, name, tool: loaded.tool };
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" };

/** The text of a screen: its rows' markup without tags, entities read back. */
function screenText(model: ReviewModel, step: number, width = model.width): string[] {
  const screen = model.screens[model.steps[step].screens[model.widths.indexOf(width)]];
  return screen.map((r) =>
    model.rows[r].replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#39);/g, (e) => ENTITIES[e]),
  );
}

const leaf = (model: ReviewModel, id: string) => {
  const state = model.states.find((s) => s.id === id);
  if (!state) throw new Error(`no state ${id}`);
  return state;
};

describe("the review page of the branching example", () => {
  const form = example("branching");
  let model: ReviewModel;
  it("builds (replaying every generated route on the component)", async () => {
    model = await reviewModel(form);
    const machine = createFormMachine(form.spec) as unknown as AnyStateMachine;
    expect(model.routes).toHaveLength(generatePaths(form.spec, machine).length);
  }, 60_000);

  it("shows every state the screen a person sees there, at every width", () => {
    form.spec.questions.forEach((q, i) => {
      const state = leaf(model, `q${i + 1}.choosing`);
      expect(state.step).toBeGreaterThanOrEqual(0);
      for (const width of model.widths) {
        const text = screenText(model, state.step, width);
        expect(text.join(" ").replace(/\s+/g, " ")).toContain(q.prompt.split(" ").slice(0, 4).join(" "));
        // The border is the screen's width: the real layout at that width.
        expect(text[0]).toBe("─".repeat(width));
      }
    });
    expect(screenText(model, leaf(model, "review.reviewing").step).join("\n")).toContain("Review your answers");
    expect(screenText(model, leaf(model, "submitted").step).join("\n")).toContain("Submitted.");
    expect(screenText(model, leaf(model, "cancelled").step).join("\n")).toContain("Cancelled.");
    // q2 is shown only for a size of 4 or more: the route into it answers the size first.
    const intoQ2 = leaf(model, "q2.choosing").step;
    expect(model.steps[model.steps[intoQ2].parent].state).toBe("q1.choosing");
    expect(screenText(model, intoQ2).join("\n")).toMatch(/■ Size/);
  });

  it("keeps the terminal's colours and reverse video as markup", () => {
    const rows = model.screens[model.steps[0].screens[1]].map((r) => model.rows[r]);
    // The active tab is drawn in reverse video, the highlighted option in the accent colour.
    expect(rows.join("")).toMatch(/background-color: #[0-9A-Fa-f]{6};'> □ Size /);
    expect(rows.find((r) => r.includes("› 1. Tiny"))).toMatch(/style='color: #[0-9a-f]{6};'>› 1\. Tiny/);
  });

  it("labels every edge a person takes with its keys, in the help line's names", () => {
    const edge = (from: string, label: string) => {
      const found = model.edges.find((e) => e.from === from && e.label === label);
      if (!found) throw new Error(`no edge ${from} ${label}`);
      return found;
    };
    expect(edge("review_reviewing", "CONFIRM [canSubmit]").keys).toEqual(["Enter"]);
    // The review numbers the questions shown: with Split hidden, Team is number 2 (or Enter on its line).
    expect(edge("review_reviewing", "CONFIRM [reviewCursorOn(q3)]").keys.sort()).toEqual(["2", "Enter"]);
    expect(edge("q1", "NEXT_TAB").keys).toEqual(["Tab", "→"]);
    expect(edge("q1", "PREV_TAB").keys).toEqual(["Shift+Tab", "←"]);
    expect(edge("q1_choosing", "CANCEL").keys).toContain("Esc");
    // A hidden question passes a move on: the eventless skip is labelled with the keys that led to it.
    expect(edge("q2", "always [hiddenGoing(q2, forward)]").keys).toEqual(expect.arrayContaining(["Enter", "Tab"]));
    for (const e of model.edges.filter((x) => !x.refused && !x.label.startsWith("ABORT")))
      expect({ edge: e.label, keys: e.keys.length > 0 }).toEqual({ edge: e.label, keys: true });
  });

  it("shows the events a state ignores on a greyed loop, and where they are ignored", () => {
    const loop = model.edges.find((e) => e.refused && e.from === "review_reviewing");
    // Submit refuses Enter while a required question is open.
    expect(loop?.label).toContain("Enter (CONFIRM)");
    const confirm = leaf(model, "review.reviewing").keys.find((row) => row.event === "CONFIRM");
    // Enter submits from the submit line, opens the question whose line the cursor is on, or is refused.
    expect(confirm?.outcomes.map((o) => o.to).sort()).toEqual([
      "q1.choosing",
      "q2.choosing",
      "q3.choosing",
      "q4.choosing",
      "refused",
      "submitted",
    ]);
    expect(confirm?.outcomes.find((o) => o.to === "q3.choosing")?.when).toMatch(/the cursor is on Team$/);
    const refusedStep = confirm?.outcomes.find((o) => o.to === "refused")?.step ?? -1;
    expect(model.steps[refusedStep]).toMatchObject({ refused: true, state: "review.reviewing", edges: [] });
  });

  it("says when each key leads where it leads, in the words of the form", () => {
    const row = (state: string, event: string) => {
      const found = leaf(model, state).keys.find((r) => r.event === event);
      if (!found) throw new Error(`no ${event} in ${state}`);
      return found;
    };
    const whenTo = (state: string, event: string, to: string) =>
      row(state, event)
        .outcomes.filter((o) => o.to === to)
        .map((o) => o.when)
        // in the order of the routes that first take them, which is not the point here
        .sort((a, b) => a.length - b.length);
    // Enter on Size leads to Split for a size of 4 or 5, to Team for 1 to 3.
    expect(row("q1.choosing", "CONFIRM").keys).toEqual(["Enter"]);
    // Coming back from the review, the answer goes on to Split when it reveals Split (and Split is open).
    expect(whenTo("q1.choosing", "CONFIRM", "q2.choosing")).toEqual([
      "when Size is 4 or more (4 or 5)",
      "when Size is 4 or more (4 or 5); coming back from the review",
    ]);
    expect(whenTo("q1.choosing", "CONFIRM", "q3.choosing")).toEqual([
      "when Size is less than 4 (1, 2 or 3) · skips Split",
      "when Size is less than 4 (1, 2 or 3); coming back from the review",
    ]);
    expect(whenTo("q1.choosing", "CONFIRM", "review.reviewing")).toEqual(["when coming back from the review"]);
    expect(whenTo("q1.choosing", "NEXT_TAB", "q2.choosing")).toEqual(["when Size is 4 or more (4 or 5)"]);
    expect(whenTo("review.reviewing", "CONFIRM", "submitted")).toEqual(["when every required question is answered"]);
    expect(whenTo("q1.choosing", "CANCEL", "cancelled")).toEqual(["when nothing was entered"]);
    // Every outcome that depends on an answer says so.
    for (const s of model.states)
      for (const r of s.keys)
        for (const o of r.outcomes)
          if (
            /^q[234]\./.test(o.to) &&
            !s.id.startsWith(o.to.split(".")[0]) &&
            o.when !== "when coming back from the review"
          )
            expect({ from: s.id, to: o.to, when: o.when }).toEqual({
              from: s.id,
              to: o.to,
              when: expect.stringMatching(/^when (Size|Team) /),
            });
  });

  it("draws the chart in the person's words: question names, keys and conditions, no event names", async () => {
    const html = await reviewPage(form);
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&#45;/g, "-"));
    const all = texts.join(" ");
    for (const name of ["Size", "Split", "Team", "Review your answers", "Submitted", "Cancelled"])
      expect(texts).toContain(name);
    expect(all).toContain("when Size is 4 or more (4 or");
    expect(all).not.toMatch(/\b(CONFIRM|NEXT_TAB|PREV_TAB|MOVE_TO|ADVANCE|SELECT|choosing)\b/);
    expect(all).not.toContain("ignored");
    // The drawn edge from Size to Split says which keys take it and when.
    const edge =
      /<g id="(states&#45;\d+)" class="edge">\s*<title>q1_choosing&#45;&gt;q2_choosing<\/title>([\s\S]*?)<\/g>/.exec(
        svg,
      );
    expect(edge).not.toBeNull();
    const label = [...(edge?.[2] ?? "").matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(" ");
    expect(label).toMatch(/Enter/);
    expect(label).toMatch(/Tab/);
    // Both digits that lead there; the condition is Split's own, on its node, not repeated on the edge.
    expect(label).toContain("4 5");
    expect(label).not.toContain("when");
  }, 60_000);

  it("folds the keys that stay, the keys ignored, discard prompts and moves back into the full view", () => {
    const flow = reviewChart(form.spec, model);
    const full = reviewChart(form.spec, model, { loops: true });
    const lines = (c: typeof flow) => c.edges.flatMap((e) => e.lines);
    expect(lines(flow).some((l) => l.endsWith("ignored"))).toBe(false);
    expect(lines(full).some((l) => l.endsWith("ignored"))).toBe(true);
    expect(flow.edges.some((e) => e.from === e.to || /discarding/.test(e.from + e.to))).toBe(false);
    expect(full.edges.some((e) => e.from === e.to)).toBe(true);
    expect(full.edges.some((e) => e.from === "q1_discarding")).toBe(true);
    // Shift+Tab from Team back to Size is only in the full view.
    expect(flow.edges.some((e) => e.from === "q3_choosing" && e.to === "q1_choosing")).toBe(false);
    expect(full.edges.some((e) => e.from === "q3_choosing" && e.to === "q1_choosing")).toBe(true);
    // Every step a chart draws points at its edge.
    model.steps.forEach((step, id) => {
      const i = full.edgeOf[id];
      if (i < 0) return;
      expect(full.edges[i].from).toBe(leaf(model, model.steps[step.parent].state).dot);
    });
  });

  it("covers the whole chart, as the path tests do", () => {
    const { coverage } = model;
    expect(coverage.states.missed).toEqual([]);
    expect(coverage.transitions.missed).toEqual([]);
    expect(coverage.percent).toBe(100);
    expect(coverage.table.every((t) => t.routes > 0)).toBe(true);
  });

  it("gives the tool's text and details at the end of the shortest submit and of a cancel", () => {
    const submit = model.submit!;
    const route = model.routes[submit.route];
    expect(model.steps[route[route.length - 1]].state).toBe("submitted");
    expect(route.length).toBe(
      Math.min(...model.routes.filter((r) => model.steps[r[r.length - 1]].state === "submitted").map((r) => r.length)),
    );
    expect(submit.text).toMatch(/^Size: /);
    expect(submit.details).toMatchObject({ cancelled: false });
    expect(model.cancel?.details).toMatchObject({ cancelled: true });
    expect(model.routes[model.cancel!.route]).toHaveLength(1);
    // What the model reads is what the tool itself answers for that result.
    expect(model.cancel?.text).toBe(form.answer({ ...cancelResult(form.spec) }).text);
  });

  it("draws each step as a form driven from its opening to there draws it, one screen at a time", async () => {
    // The page goes on from where an earlier route left off and writes its screens in batches.
    const table = new ScreenTable();
    const rows = (screen: number) => table.screens[screen].map((r) => table.rows[r]);
    try {
      for (const [id, step] of model.steps.entries()) {
        const events: FormEvent[] = [];
        for (let at = step; at.parent >= 0; at = model.steps[at.parent]) if (at.raw) events.unshift(at.raw);
        const terminal = reviewScreen(form.spec);
        for (const event of events) sendToScreen(terminal, event);
        const screen = table.add(terminal.render(80, model.height, false), 80);
        await table.done();
        terminal.session.dispose();
        const page = model.screens[step.screens[model.widths.indexOf(80)]].map((r) => model.rows[r]);
        expect({ id, event: step.event, screen: page }).toEqual({ id, event: step.event, screen: rows(screen) });
      }
    } finally {
      table.dispose();
    }
  }, 60_000);
});

function cancelResult(spec: ReturnType<typeof example>["spec"]) {
  return {
    cancelled: true,
    answers: spec.questions.map((q) => ({ id: q.id, answered: false, options: [], custom: [] })),
    skipped: [],
    hidden: spec.questions.filter((q) => q.visibility.kind !== "always").map((q) => q.id),
    waited: false,
    notes: spec.questions.map(() => ({})),
    additionalText: "",
  };
}

describe("review pages of other forms", () => {
  it("shows the countdown of a throttled form and what happens when it runs out", async () => {
    const model = await reviewModel(example("throttled"));
    expect(model.initial).toBe("waiting");
    expect(screenText(model, 0).join("\n")).toMatch(/A question is coming in \d+s/);
    const after = leaf(model, "waiting").keys.find((row) => row.event === "after the cooldown");
    expect(after?.outcomes.map((o) => o.to)).toEqual(["q1.choosing"]);
  }, 60_000);

  it("names the Backspace that empties an editor a default filled in", async () => {
    const model = await reviewModel(example("form-signup"));
    const emptied = model.steps.find((step) => step.raw?.type === "TYPE" && step.raw.text === "");
    expect(emptied?.keys).toEqual([expect.stringMatching(/^Backspace ×\d+$/)]);
  }, 60_000);

  it("shows a form without fields as a confirmation: no tabs, no questions to go to", async () => {
    const model = await reviewModel(example("form-confirm"));
    const screen = screenText(model, leaf(model, "review.reviewing").step).join("\n");
    expect(screen).toContain("Press Enter to confirm.");
    expect(screen).toContain("Enter confirm • d decline • Alt+H fold • Esc cancel");
    expect(screen).not.toMatch(/Submit\s+0\/0|1-9|Tab|Review your answers/);
    const confirm = leaf(model, "review.reviewing").keys.find((r) => r.event === "CONFIRM");
    // Nothing is required, so Enter always confirms.
    expect(confirm?.outcomes).toEqual([expect.objectContaining({ to: "submitted", when: "" })]);
    const html = await reviewPage(example("form-confirm"));
    expect(html).toMatch(/<text[^>]*>Confirmation<\/text>/);
  }, 60_000);

  it("shows the editor where a typed answer is written", async () => {
    const model = await reviewModel(example("input-text"));
    const typing = leaf(model, "q1.typing");
    expect(typing.keys.find((row) => row.event === 'SUBMIT_TEXT ""')?.keys).toEqual(["Enter"]);
    const typed = model.steps.find((s) => s.state === "q1.typing" && s.event.startsWith("TYPE"));
    expect(typed).toBeDefined();
    const text = JSON.parse(typed!.event.slice("TYPE ".length)) as string;
    const step = model.steps.indexOf(typed!);
    expect(screenText(model, step).join("\n")).toContain(text);
    // The editor's cursor markers are drawn as its cursor (a reverse-video cell), never as text.
    const rows = model.screens[model.steps[step].screens[model.widths.indexOf(model.width)]].map((r) => model.rows[r]);
    expect(rows.join("\n")).not.toContain("pi:");
    // xterm.js's default colours swapped: the cell drawn in reverse video.
    expect(rows.find((row) => row.includes(text.slice(0, 8)))).toContain("background-color: #BFBFBF");
    expect(screenText(model, step).every((row) => [...row].length <= model.width)).toBe(true);
  }, 60_000);

  it("draws pi-tui's cursor markers as the cell they mark", () => {
    expect(resolveCursorMarkers("ab\x1b_pi:c\x07\x1b_pi:fc\x07c\x1b_pi:/fc\x07d")).toBe("ab\x1b[7mc\x1b[27md");
    expect(resolveCursorMarkers("ab\x1b_pi:c\x07\x1b_pi:fc\x07 ")).toBe("ab\x1b[7m \x1b[27m");
    expect(resolveCursorMarkers("plain \x1b[1mbold\x1b[22m")).toBe("plain \x1b[1mbold\x1b[22m");
  });
});

describe("hostile text", () => {
  const spec = normalizeForm({
    title: "<!-- </script><script>window.pwned = 1</script>",
    questions: [
      {
        prompt: "Pick </script><img src=x onerror=alert(1)> \u2028 \x1b]0;title\x07\x1b[31mred?",
        options: [{ label: "<b>bold</b> & 'quoted'" }, { label: "\x1b[2J\x1b[Hwipe" }],
        allowOther: false,
      },
    ],
  });

  it("stays text: escaped in the page, in its data and on the screens", async () => {
    const name = "</script><script>window.pwned = 2</script>";
    const html = await reviewPage({ spec, name });
    expect(html).not.toContain("<script>window.pwned");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>bold");
    expect(html.match(/<script\b/g)).toHaveLength(2);
    const json = /<script type="application\/json" id="review-data">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    const data = JSON.parse(json);
    expect(data.name).toBe(name);
    const model = await reviewModel({ spec });
    const screen = screenText(model, 0).join("\n");
    expect(screen).toContain("<img src=x onerror=alert(1)>");
    expect(screen).toContain("<b>bold</b> & 'quoted'");
    expect(screen).not.toMatch(/\x1b/);
  }, 60_000);

  it("keeps the controls a terminal would run, and bidirectional controls, out of the file", async () => {
    const sly = normalizeForm({
      title: "Bell\x07 C1\x9b31m escape\x1b[2J",
      questions: [
        {
          id: "q1",
          label: "Tab\x1b]0;x\x07",
          prompt: "Right\u202eto left \u2066isolate\u2069 del\x7f",
          options: [{ label: "A\x1b[31m" }, { label: "B\u200f" }],
          allowOther: false,
        },
      ],
    });
    const answer = () => ({ text: "Model\x1b[1m text\x9b\u202e", details: { raw: "\x07\u2067" } });
    const html = await reviewPage({ spec: sly, name: "sly\x1b", answer });
    expect(html).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    // Still there, as a form's screen shows them: pictures of the controls (U+FFFD for C1 and bidi controls).
    expect(html).toContain("Model^[[1m text\ufffd\ufffd");
  }, 60_000);

  it("JSON for a script element cannot close it", () => {
    expect(scriptJson({ a: "</script><!--\u2028" })).toBe('{"a":"\\u003c/script>\\u003c!--\\u2028"}');
  });
});

describe("self-contained", () => {
  it("inlines its script and style, loads nothing, and is the same every time", async () => {
    const form = example("single");
    const [a, b] = [await reviewPage(form), await reviewPage(form)];
    expect(a).toBe(b);
    expect(a).not.toMatch(/<link\b|<script\s+src|<img\b|@import|url\(\s*['"]?(https?:)?\/\//);
    expect(a.match(/\b(src|href)="(?!#)[^"]*"/g)).toBeNull();
    expect(a).toContain("review-data");
    const linked = await reviewPage(form, { assets: { script: "review-page.js", style: "review-page.css" } });
    expect(linked).toContain('<script src="review-page.js"></script>');
    expect(linked).toContain('<link rel="stylesheet" href="review-page.css">');
  }, 60_000);

  it("takes its script from dist/ only as built from the script's sources, else says to run the build", () => {
    const dir = tempAgentDir();
    const sources = join(dir, "client");
    cpSync(join(import.meta.dirname, "..", "renderers", "review", "client"), sources, { recursive: true });
    const url = (path: string) => pathToFileURL(path.endsWith(".js") ? path : `${path}/`);
    const built = join(dir, "review-client.js");
    expect(() => builtClient(url(built), url(sources))).toThrow("dist/review-client.js is missing: run npm run build");
    const script = `${clientHeader(clientSourcesHash(url(sources)))}\n"use strict";\n`;
    writeFileSync(built, script);
    expect(builtClient(url(built), url(sources))).toBe(script);
    // A source changed after the build: the built script is stale.
    writeFileSync(join(sources, "main.ts"), `${readFileSync(join(sources, "main.ts"), "utf8")}\n// changed\n`);
    expect(() => builtClient(url(built), url(sources))).toThrow(
      "dist/review-client.js was built from other sources than renderers/review/client/: run npm run build",
    );
    // Without the sources (an installed package holds what the build made), the built script is taken as it is.
    rmSync(sources, { recursive: true });
    expect(builtClient(url(built), url(sources))).toBe(script);
  });
});

describe("key names", () => {
  it("are the help line's: arrows as arrows, modifiers capitalized", () => {
    expect(
      ["up", "down", "left", "right", "enter", "escape", "tab", "shift+tab", "space", "ctrl+c", "pageDown", "j"].map(
        (k) => keyName(k as KeyId),
      ),
    ).toEqual(["↑", "↓", "←", "→", "Enter", "Esc", "Tab", "Shift+Tab", "Space", "Ctrl+C", "PgDn", "j"]);
  });

  it("match what each drawn edge's transition is called in the coverage table", async () => {
    for (const name of ["rich", "throttled"]) {
      const form = example(name);
      const { definition } = missedBy(createFormMachine(form.spec) as unknown as AnyStateMachine, newCoverage());
      for (const e of formDiagram(form.spec).edges) expect(definition.transitions).toContain(e.transition);
    }
  });
});

describe("conditions in words", () => {
  const spec = normalizeForm({
    questions: [
      { id: "size", label: "Size", prompt: "Size?", options: ["1", "2", "3", "4", "5"].map((label) => ({ label })) },
      { id: "name", prompt: "Name?", options: [], kind: "text" },
    ],
  });
  const words = (c: Condition, negated = false) => conditionWords(spec, c, negated);

  it("names the question and, when only some of its options satisfy it, those options", () => {
    expect(words({ field: "size", operator: "gte", value: "4" })).toBe("Size is 4 or more (4 or 5)");
    expect(words({ field: "size", operator: "gte", value: "4" }, true)).toBe(
      "Size is less than 4 (1, 2 or 3) or not answered",
    );
    expect(words({ field: "size", operator: "lt", value: "2" })).toBe("Size is less than 2 (1)");
    expect(words({ field: "size", operator: "gt", value: "3" })).toBe("Size is more than 3 (4 or 5)");
    expect(words({ field: "size", operator: "lte", value: "9" })).toBe("Size is 9 or less");
    expect(words({ field: "size", operator: "in", value: ["1", "2"] })).toBe("Size is 1 or 2");
    expect(words({ field: "size", operator: "not_equals", value: "3" })).toBe("Size is not 3 (1, 2, 4 or 5)");
    expect(words({ field: "q2", operator: "contains", value: "x" })).toBe('q2 contains "x"');
    expect(words({ field: "q2", operator: "matches", value: "^a" })).toBe("q2 matches /^a/");
    expect(words({ field: "q2", operator: "is_empty" })).toBe("q2 is not answered");
    expect(words({ field: "q2", operator: "is_not_empty" })).toBe("q2 is answered");
  });

  it("writes a question's show conditions, all of which must hold", () => {
    const when = {
      kind: "when" as const,
      conditions: [
        { field: "size", operator: "gte" as const, value: "2" },
        { field: "q2", operator: "is_not_empty" as const },
      ],
    };
    expect(conditionText(spec, when)).toBe("Size is 2 or more (2, 3, 4 or 5) and q2 is answered");
    expect(conditionText(spec, { kind: "never" })).toBe("never");
    expect(conditionText(spec, { kind: "always" })).toBe("");
  });
});

describe("keyList", () => {
  it("writes alternatives with slashes and a run of digits as a range", () => {
    expect(keyList(["Enter"])).toBe("Enter");
    expect(keyList(["Tab", "→"])).toBe("Tab / →");
    expect(keyList(["3", "Enter", "1", "2", "5"])).toBe("Enter / 1–3 / 5");
    expect(keyList(["1", "2"])).toBe("1 2");
    expect(keyList([])).toBe("");
  });
});

describe("the coverage in the person's words", () => {
  const branching = () => {
    const loaded = loadFormFile("branching");
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.form.spec;
  };

  it("names a transition no route took by question, state and key", () => {
    const spec = branching();
    expect(coveredWords(spec, "form.q1.choosing CANCEL #1")).toBe("Size · options · Esc (cancel)");
    expect(coveredWords(spec, "form.review.reviewing CONFIRM #0")).toBe("Review your answers · Enter");
    expect(coveredWords(spec, "form.q3.typing always #0")).toBe("Team · typing an answer · on its own (no key)");
  });

  it("names a state and a condition's outcome by question", () => {
    const spec = branching();
    expect(coveredWords(spec, "form.q2.discarding")).toBe("Split · discard what was entered?");
    expect(coveredWords(spec, "form")).toBe("the form");
    expect(coveredWords(spec, "split #0 size=4 true")).toBe(
      "Split · shown when Size is 4 or more (4 or 5) · answered 4 (holds)",
    );
    expect(coveredWords(spec, "team #0 size= false")).toBe(
      "Team · shown when Size is less than 4 (1, 2 or 3) · unanswered (fails)",
    );
  });

  it("finds the options no condition tells apart", () => {
    const spec = branching();
    // Size: 4 or more shows Split, less than 4 shows Team.
    expect(twinRows(spec, 0)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    // Team: Platform and Payments show Review, Growth does not.
    expect(twinRows(spec, 2)).toEqual([[0, 1], [2]]);
    // Split: nothing depends on it.
    expect(twinRows(spec, 1)).toEqual([[0, 1]]);
  });
});

describe("/formchart review", () => {
  it("writes the page of the last form, with the tool's result, and opens a browser only when asked", async () => {
    const state = new FormchartState(tempAgentDir());
    const opened: string[] = [];
    const opener = async (file: string) => {
      opened.push(file);
    };
    expect(await runFormchart("review", state, opener)).toMatchObject({ level: "warning" });
    const form = example("single");
    const { ctx } = fakeUiContext((c) => c.handleInput("1"));
    await showAndKeep(state, ctx as never, form, undefined);

    const reply = await runFormchart("review", state, opener);
    expect(reply.level).toBe("info");
    const file = /to (\S+)$/.exec(reply.text)?.[1] ?? "";
    expect(existsSync(file)).toBe(true);
    const html = readFileSync(file, "utf8");
    expect(html).toContain("Which database should the new service use?");
    // The question tool's own text for the shortest submit (1) and for a cancel, not the engine's result.
    expect(html).toContain("user selected: 1. PostgreSQL");
    expect(html).toContain(escapeText(form.answer(cancelResult(form.spec)).text));
    expect(opened).toEqual([]);

    expect((await runFormchart("review --open", state, opener)).text).toContain("opened it");
    expect(opened).toEqual([file]);
    const failing = await runFormchart("review --open", state, async () => {
      throw new Error("spawn xdg-open ENOENT");
    });
    expect(failing).toMatchObject({ level: "warning" });
    expect(failing.text).toContain("xdg-open ENOENT");
    expect((await runFormchart("review now", state, opener)).level).toBe("error");
  }, 60_000);
});

describe("/formchart review of a form whose page cannot be built", () => {
  it("tells the person why in one line through Pi's notice, and throws nothing into Pi", async () => {
    const state = new FormchartState(tempAgentDir());
    const { ctx: shown } = fakeUiContext((c) => c.handleInput("1"));
    await showAndKeep(state, shown as never, example("single"), undefined);
    // A form whose route search fails: a question the machine cannot read.
    const last = state.lastForm!;
    state.keep({ ...last, spec: { ...last.spec, questions: [...last.spec.questions, null as never] } });
    const pi = fakePi();
    registerFormchartCommand(pi.api, state);
    const notices: Array<[string, string]> = [];
    const ctx = { hasUI: true, ui: { notify: (text: string, level: string) => notices.push([text, level]) } };
    await expect(pi.commands.get("formchart")!.handler("review", ctx as never)).resolves.toBeUndefined();
    await expect(pi.commands.get("formchart")!.handler("graph", ctx as never)).resolves.toBeUndefined();
    expect(notices.map(([, level]) => level)).toEqual(["error", "error"]);
    const [[review], [graph]] = notices;
    expect(review).toMatch(/^Could not build the review page of the last form: \S.*$/);
    expect(graph).toMatch(/^Could not draw the statechart of the last form: \S.*$/);
    for (const [text] of notices) expect(text).not.toMatch(/\n|\bat .*:\d+:\d+/);
  }, 60_000);
});

function escapeText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

describe("/formchart review's progress line", () => {
  it("says how far the build is while it searches and replays the routes, and clears it at the end", async () => {
    const state = new FormchartState(tempAgentDir());
    const form = example("demo");
    const { ctx } = fakeUiContext((c) => c.handleInput("\x1b"));
    await showAndKeep(state, ctx as never, form, undefined);
    const lines: Array<string | undefined> = [];
    const reply = await runFormchart("review", state, undefined, { progress: (line) => lines.push(line) });
    expect(reply.level).toBe("info");
    expect(lines[0]).toMatch(/^Review page: searching the routes \(\d+ states so far\)$/);
    expect(lines.some((line) => /^Review page: replaying route \d+ of \d+$/.test(line ?? ""))).toBe(true);
    expect(lines.at(-1)).toBeUndefined();
  }, 60_000);
});

describe("building a review page", () => {
  it("gives the event loop a turn whenever the route search or the replay has held it for more than a few milliseconds", async () => {
    const form = example("demo");
    // Each reading of the clock is 20 ms later: every route then comes after a long stretch.
    let clock = 0;
    const now = jest.spyOn(performance, "now").mockImplementation(() => (clock += 20));
    let turns = 0;
    let building = true;
    const tick = () => {
      turns++;
      if (building) setImmediate(tick);
    };
    const seen: number[] = [];
    const searched: number[] = [];
    try {
      setImmediate(tick);
      await reviewModel(
        { spec: form.spec, name: "demo" },
        { widths: [60], onProgress: () => seen.push(turns), onSearch: () => searched.push(turns) },
      );
    } finally {
      building = false;
      now.mockRestore();
    }
    // Between any two routes, and any two snapshots the search looked at, the loop had a turn.
    const stalls = (turnsAt: number[]) => turnsAt.slice(1).filter((t, i) => t === turnsAt[i]);
    expect(searched.length).toBeGreaterThan(50);
    expect(stalls(searched)).toEqual([]);
    expect(seen.length).toBeGreaterThan(50);
    expect(stalls(seen)).toEqual([]);
  }, 60_000);
});

describe("the opener of /formchart review --open", () => {
  it("fails when the opener exits with an error, and succeeds when it exits cleanly or keeps running", async () => {
    const node = process.execPath;
    await expect(commandOpener(node, ["-e", "process.exit(3)"])).rejects.toThrow(/exited with code 3/);
    await expect(commandOpener("/nonexistent/opener", [])).rejects.toThrow(/ENOENT/);
    await expect(commandOpener(node, ["-e", "process.exit(0)"])).resolves.toBeUndefined();
    await expect(commandOpener(node, ["-e", "setTimeout(() => {}, 3000)"], 300)).resolves.toBeUndefined();
  }, 30_000);
});

describe("/formchart completions", () => {
  it("complete a part of a command, and offer nothing once it is whole, so one Enter runs it", () => {
    expect(formchartCompletions("rev")?.map((i) => i.value)).toEqual(["review", "review --open"]);
    expect(formchartCompletions("review")).toBeNull();
    expect(formchartCompletions("graph ")?.map((i) => i.value)).toEqual(["graph svg", "graph mermaid", "graph dot"]);
    expect(formchartCompletions("graph s")?.map((i) => i.value)).toEqual(["graph svg"]);
    expect(formchartCompletions("review --open")).toBeNull();
    expect(qwizardCompletions("status")).toBeNull();
    expect(qwizardCompletions("sta")?.map((i) => i.value)).toEqual(["status"]);
  });
});

describe("the review drawn as a hub", () => {
  it("joins the review and the questions once, not every question to every later one", async () => {
    const n = 4;
    const spec = normalizeForm({
      questions: Array.from({ length: n }, (_, i) => ({
        id: `s${i + 1}`,
        label: `Step ${i + 1}`,
        prompt: `Step ${i + 1}?`,
        allowOther: false,
        options: [{ label: "Go" }, { label: "Stop" }, { label: "Wait" }],
      })),
    });
    const model = await reviewModel({ spec });
    for (const overview of [true, false]) {
      const chart = reviewChart(spec, model, { overview });
      const question = (node: string) => /^q\d/.test(node);
      const jumps = chart.edges.filter((e) => question(e.from) && question(e.to));
      // One edge from each question to the next, none over a question.
      expect({ overview, jumps: jumps.length }).toEqual({ overview, jumps: n - 1 });
      expect(chart.edges.length).toBeLessThanOrEqual(2 * n + 4);
      const back = chart.edges.find((e) => e.from === "any_question" && e.to.startsWith("review"));
      expect(back?.lines).toEqual([expect.stringMatching(/^Enter\b.* — when coming back from the review$/)]);
      const edit = chart.edges.find((e) => e.from.startsWith("review") && e.to === "any_question");
      expect(edit?.lines.join(" ")).toContain(`1–${n}`);
    }
  }, 60_000);
});
