/**
 * The mouse, opt-in: reporting is on only while a form with the setting has
 * focus and is always switched off on the way out; clicks and the wheel
 * answer the form through the same events keys send, wherever the form
 * stands on the screen.
 */

import { visibleWidth } from "@earendil-works/pi-tui";
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import { type FormSpec, normalizeForm } from "../machines/spec.js";
import type { FormComponent } from "../renderers/terminal/component.js";
import { MOUSE_OFF, MOUSE_ON } from "../renderers/terminal/mouse.js";
import { plainText } from "../renderers/text.js";
import { runFormchart } from "../tools/commands.js";
import { FormchartState } from "../tools/state.js";
import { KEY, openForm, overflowingLines } from "./helpers/fake-host.js";
import { tempAgentDir } from "./helpers/temp.js";

const WIDTH = 80;

/**
 * A host like pi-tui's: it records what is written to the terminal, and its
 * screen holds other lines above and below the form (and, for an overlay, a
 * frame to the form's left), scrolled so that `top` lines are above the screen.
 */
function screenHost(options: { above?: number; below?: number; left?: string; top?: number } = {}) {
  const writes: string[] = [];
  let form: FormComponent | undefined;
  const host = {
    terminal: { rows: 40, columns: WIDTH + (options.left?.length ?? 0), write: (data: string) => writes.push(data) },
    requestRender() {},
    get previousLines(): string[] {
      const lines = form?.render(WIDTH) ?? [];
      const above = Array.from({ length: options.above ?? 0 }, (_, i) => `chat line ${i}`);
      const below = Array.from({ length: options.below ?? 0 }, (_, i) => `footer ${i}`);
      return [...above, ...lines.map((l) => `${options.left ?? ""}${l}`), ...below];
    },
    previousViewportTop: options.top ?? 0,
  };
  const attach = (f: FormComponent) => {
    form = f;
  };
  return { host, writes, attach };
}

function open(spec: FormSpec, options: Parameters<typeof screenHost>[0] = {}, mouse = true) {
  const { host, writes, attach } = screenHost(options);
  const { form, session, results, outcomes } = openForm(spec, { host, mouse, maxHeight: () => 36 });
  const errors: string[] = [];
  session.watch(() => {
    const error = outcomes[0]?.error;
    if (error !== undefined && errors.length === 0) errors.push(error);
  });
  attach(form);
  /** Click on the first screen cell whose text starts `text` (1-based SGR coordinates). */
  const click = (text: string, button = 0) => {
    const lines = host.previousLines.map(plainText);
    const row = lines.findIndex((l) => l.includes(text));
    if (row < 0) throw new Error(`"${text}" is not on screen:\n${lines.join("\n")}`);
    const col = visibleWidth(lines[row].slice(0, lines[row].indexOf(text)));
    form.handleInput(`\x1b[<${button};${col + 1};${row - host.previousViewportTop + 1}M`);
    form.handleInput(`\x1b[<${button};${col + 1};${row - host.previousViewportTop + 1}m`);
  };
  return { form, writes, results, errors, click };
}

function example(name: string): FormSpec {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  return { ...loaded.form.spec, waitMs: undefined };
}

const mouseWrites = (writes: string[]) => writes.filter((w) => w === MOUSE_ON || w === MOUSE_OFF);

describe("reporting is on while the form has focus, and off on every way out", () => {
  const spec = normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] });

  it.each([
    ["submitted", (f: FormComponent) => f.handleInput(KEY.enter)],
    ["cancelled", (f: FormComponent) => f.handleInput(KEY.esc)],
    ["aborted", (f: FormComponent) => f.session.abort()],
    ["disposed", (f: FormComponent) => f.dispose()],
    [
      "losing focus",
      (f: FormComponent) => {
        f.focused = false;
      },
    ],
  ])("%s: the last mouse-mode write turns reporting off", (_name, close) => {
    const { form, writes } = open(spec);
    expect(mouseWrites(writes)).toEqual([MOUSE_ON]);
    close(form);
    expect(mouseWrites(writes)).toEqual([MOUSE_ON, MOUSE_OFF]);
    form.dispose();
    expect(mouseWrites(writes).at(-1)).toBe(MOUSE_OFF);
  });

  it("crashed: a form that fails closes and turns reporting off", () => {
    const { host, writes } = screenHost();
    const broken = { cursors: [0], picks: [null], answered: [false], drafts: [""], notes: [{}] } as never;
    const { form, outcomes } = openForm(spec, { host, mouse: true, restore: broken });
    form.handleInput(KEY.enter);
    expect(outcomes[0]?.error).toBeDefined();
    expect(mouseWrites(writes)).toEqual([MOUSE_ON, MOUSE_OFF]);
  });

  it.each([
    [
      "the terminal's rows throw",
      (host: ReturnType<typeof screenHost>["host"]) => ({
        host: {
          ...host,
          terminal: {
            columns: WIDTH,
            write: host.terminal.write,
            get rows(): number {
              throw new Error("no rows");
            },
          },
        },
      }),
    ],
    [
      "the height throws",
      (host: ReturnType<typeof screenHost>["host"]) => ({
        host,
        maxHeight: (): number => {
          throw new Error("no rows");
        },
      }),
    ],
  ])("%s: render gives nothing and the form closes cancelled with the error, reporting off", (_name, make) => {
    const { host, writes } = screenHost();
    const { form, outcomes } = openForm(spec, { mouse: true, ...make(host) });
    expect(mouseWrites(writes)).toEqual([MOUSE_ON]);
    expect(form.render(WIDTH)).toEqual([]);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].error).toBe("no rows");
    expect(outcomes[0].result.cancelled).toBe(true);
    expect(mouseWrites(writes)).toEqual([MOUSE_ON, MOUSE_OFF]);
  });

  it("with the setting off nothing is written and a mouse report does nothing", () => {
    const { form, writes, results } = open(spec, {}, false);
    const before = form.render(WIDTH);
    form.handleInput("\x1b[<0;5;5M");
    form.handleInput("\x1b[<65;5;5M");
    expect(writes).toEqual([]);
    expect(form.render(WIDTH)).toEqual(before);
    expect(results).toEqual([]);
  });
});

describe("a click is the event a key would send", () => {
  it.each([
    ["inline, below a chat", { above: 12, below: 3 }],
    ["scrolled, with lines above the screen", { above: 30, below: 3, top: 20 }],
    ["in an overlay, framed on the left", { above: 4, left: "│   " }],
  ])("%s: the demo form answered with the mouse alone", (_name, where) => {
    const { click, results } = open(example("demo"), where);
    click("2. Data access");
    // Checks: tick two, then on to the Branch tab by its tab; a branch name; then Submit confirms.
    click("1. Unit tests");
    click("3. Lint");
    click("□ Branch");
    click("2. refactor/layers");
    click("✓ Submit");
    expect(results).toHaveLength(1);
    expect(results[0].cancelled).toBe(false);
    expect(results[0].answers.map((a) => a.options)).toEqual([[1], [0, 2], [1]]);
  });

  it("a question's tab and a review entry go to that question; the wheel moves the highlight", () => {
    const { form, click } = open(example("questionnaire"), { above: 2 });
    click("□ Confidence");
    expect(form.session.position).toMatchObject({ kind: "question", q: 1 });
    form.handleInput("\x1b[<65;3;3M");
    expect(form.session.snapshot.context.cursors[1]).toBe(1);
    form.handleInput("\x1b[<64;3;3M");
    expect(form.session.snapshot.context.cursors[1]).toBe(0);
    click("□ Submit");
    expect(form.session.position).toMatchObject({ kind: "review" });
    click("1. Ship");
    expect(form.session.position).toMatchObject({ kind: "question", q: 0 });
  });

  it("Submit on the review screen submits, wherever the review's cursor is", () => {
    const { form, click, results } = open(example("demo"), { above: 2 });
    for (const key of ["1", KEY.space, KEY.enter, "1"]) form.handleInput(key);
    expect(form.session.position).toMatchObject({ kind: "review" });
    // The cursor on the first question's line: Enter there would open that question.
    form.handleInput(KEY.home);
    click("✓ Submit");
    expect(results).toHaveLength(1);
    expect(results[0].cancelled).toBe(false);
  });

  it("a click on the free-text row opens its editor, as Enter does", () => {
    const spec = normalizeForm({ questions: [{ prompt: "Pick", options: [{ label: "A" }, { label: "B" }] }] });
    const { form, click } = open(spec);
    click("Type something.");
    expect(form.session.position).toMatchObject({ kind: "question", mode: "typing" });
  });
});

describe("click targets are worked out only while the mouse reports", () => {
  /** The click targets of the frame the form keeps (none is worked out while the mouse is off). */
  const keptTargets = (form: FormComponent) => form.screen.frames.last?.screen.hits;

  it("none while the form has no focus, and every one as soon as it has", () => {
    const { form, click, results } = open(example("demo"), { above: 3 });
    form.focused = false;
    form.handleInput(KEY.down);
    form.render(WIDTH);
    expect(keptTargets(form)).toEqual([]);
    // Focus turns reporting on: the very next frame has its targets, and a click lands where it is drawn.
    form.focused = true;
    click("□ Branch");
    expect(form.session.position).toMatchObject({ kind: "question", q: 2 });
    expect(keptTargets(form)?.length).toBeGreaterThan(0);
    click("2. refactor/layers");
    expect(results).toEqual([]);
    expect(form.session.snapshot.context.picks[2]).toMatchObject({ options: [1] });
  });

  it("none with the setting off, at any key", () => {
    const { form } = open(example("demo"), {}, false);
    for (const key of [KEY.down, KEY.enter, KEY.down, " "]) {
      form.handleInput(key);
      form.render(WIDTH);
      expect(keptTargets(form)).toEqual([]);
    }
  });
});

describe("the setting", () => {
  it("/formchart mouse on|off is saved with the other settings", async () => {
    const dir = tempAgentDir();
    const state = new FormchartState(dir);
    expect(state.settings.mouse).toBe(false);
    expect((await runFormchart("mouse on", state)).level).toBe("info");
    expect(new FormchartState(dir).settings.mouse).toBe(true);
    expect((await runFormchart("mouse sideways", state)).level).toBe("error");
    expect((await runFormchart("mouse off", state)).text).toContain("Mouse in forms: off");
  });
});

describe("random mouse reports mixed with keys", () => {
  const report = fc
    .tuple(
      fc.constantFrom(0, 1, 2, 32, 64, 65, 4, 16),
      fc.integer({ min: 0, max: 130 }),
      fc.integer({ min: 0, max: 50 }),
      fc.boolean(),
    )
    .map(([b, x, y, press]) => `\x1b[<${b};${x};${y}${press ? "M" : "m"}`);
  const key = fc.constantFrom(
    KEY.down,
    KEY.up,
    KEY.tab,
    KEY.shiftTab,
    KEY.enter,
    KEY.esc,
    " ",
    "1",
    "2",
    "a",
    "n",
    "x",
  );
  const runs = Number(process.env.FUZZ_RUNS ?? 1000) / 5;

  it.each(exampleNames())("%s: no crash, every line fits, done at most once", (name) => {
    const spec = example(name);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(report, key), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 20 }),
        (inputs, above) => {
          const { form, results, errors } = open(spec, { above });
          for (const input of inputs) {
            form.handleInput(input);
            expect(errors).toEqual([]);
            expect(overflowingLines(form.render(WIDTH), WIDTH)).toEqual([]);
            expect(results.length).toBeLessThanOrEqual(1);
          }
          form.dispose();
        },
      ),
      { numRuns: runs },
    );
  });
});
