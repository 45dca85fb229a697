/**
 * The review page's content, checked without a browser: the screens are the
 * real screens of each state, the edges carry the keys that take them, the
 * routes are the generated ones and cover the chart, the results are the
 * tool's own text and details, hostile text stays text, and the command-line
 * `/formchart review` writes what it says.
 * (__tests__/e2e/review-page.e2e.test.ts clicks through the pages in Chromium
 * and runs `npm run visualize`.)
 */
import { existsSync, readFileSync } from "node:fs";
import type { KeyId } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import type { AnyStateMachine } from "xstate";
import { loadFormFile } from "../bin/form-file.js";
import { createFormMachine } from "../machines/form.js";
import { generatePaths, missedBy, newCoverage } from "../machines/paths.js";
import { normalizeForm } from "../machines/spec.js";
import { formDiagram } from "../renderers/graph.js";
import { keyName } from "../renderers/keymap.js";
import { keyList, type ReviewModel, reviewModel, reviewPage, scriptJson } from "../renderers/review-page.js";
import { resolveCursorMarkers } from "../renderers/review-page-screens.js";
import { runFormchart } from "../tools/commands.js";
import { FormchartState } from "../tools/state.js";
import { fakeUiContext } from "./helpers/fake-pi.js";
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
    // The review numbers the questions shown: with Split hidden, Team is number 2.
    expect(edge("review_reviewing", "SELECT [selectsQuestion(q3)]").keys).toEqual(["2"]);
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
    expect(confirm?.outcomes.map((o) => o.to).sort()).toEqual(["refused", "submitted"]);
    const refusedStep = confirm?.outcomes.find((o) => o.to === "refused")?.step ?? -1;
    expect(model.steps[refusedStep]).toMatchObject({ refused: true, state: "review.reviewing", edges: [] });
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

describe("keyList", () => {
  it("writes alternatives with slashes and a run of digits as a range", () => {
    expect(keyList(["Enter"])).toBe("Enter");
    expect(keyList(["Tab", "→"])).toBe("Tab / →");
    expect(keyList(["3", "Enter", "1", "2", "5"])).toBe("Enter / 1–3 / 5");
    expect(keyList(["1", "2"])).toBe("1 2");
    expect(keyList([])).toBe("");
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
    await state.runForm(ctx as never, form.spec, undefined, form.answer);

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

function escapeText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
