/**
 * The terminal view and the dialog front end draw the same presentation
 * model, so they cannot disagree: for every example, answered the same way,
 * each question's rows and the review screen's answer summaries read the
 * same in both.
 */
import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { exampleNames, loadFormFile } from "../bin/form-file.js";
import type { FormContext, FormEvent } from "../machines/context.js";
import { createFormMachine } from "../machines/form.js";
import { formPosition } from "../machines/position.js";
import { FormSession } from "../machines/session.js";
import { type FormSpec, isTabbed, type QuestionSpec } from "../machines/spec.js";
import { textProblems } from "../machines/text-rules.js";
import { runDialogs } from "../renderers/terminal/dialogs.js";
import { openForm } from "./helpers/fake-host.js";

/** A valid typed answer for a text question. */
function typedAnswer(q: QuestionSpec): string {
  const samples = ["Blue sky", "42", "2024-02-29", "ada@example.org", q.placeholder ?? ""];
  return samples.find((s) => s && textProblems(q.text!, s).length === 0) ?? "Blue sky";
}

/** Answer every question (second option, two ticks, or a typed answer) and stop where the form would submit. */
function answered(spec: FormSpec): FormContext {
  const unthrottled = { ...spec, waitMs: undefined };
  const actor = createActor(createFormMachine(unthrottled), { input: { spec: unthrottled } }).start();
  const send = (e: FormEvent) => actor.send(e);
  for (let guard = 0; guard < 50 && actor.getSnapshot().status === "active"; guard++) {
    const position = formPosition(actor.getSnapshot());
    if (position.kind !== "question") break;
    const q = spec.questions[position.q];
    if (q.kind === "text") {
      const text = typedAnswer(q);
      send({ type: "TYPE", text });
      if (!isTabbed(spec)) break;
      send({ type: "SUBMIT_TEXT", text });
    } else if (q.kind === "multi") {
      send({ type: "SELECT", row: 0 });
      send({ type: "SELECT", row: 1 });
      if (!isTabbed(spec)) break;
      send({ type: "CONFIRM" });
    } else {
      send({ type: "MOVE", delta: 1 });
      if (!isTabbed(spec)) break;
      send({ type: "CONFIRM" });
    }
    if (!q.autoAdvance) send({ type: "NEXT_TAB" });
  }
  const { context } = actor.getSnapshot();
  // Its answer clock (a form with a timeout) would otherwise run on after the test.
  actor.stop();
  return context;
}

/** What the dialog front end shows for a restored form: each select's options and the confirm message. */
async function dialogsOf(spec: FormSpec, restore: FormContext) {
  const selects: Array<{ title: string; options: string[] }> = [];
  const confirms: string[] = [];
  let steps = 0;
  const ui = {
    select: async (title: string, options: string[]) => {
      selects.push({ title, options });
      // Walk the tabs once, then give up (a dismissed dialog).
      return steps++ < spec.questions.length ? options.find((o) => o.startsWith("→ Next")) : undefined;
    },
    // An input keeps what it was opened with.
    input: async (_title: string, current?: string) => current ?? "",
    // Submit is declined once its summary is seen; then a dismissed dialog asks to discard, which is accepted.
    confirm: async (title: string, message: string) => {
      if (title.startsWith("Discard")) return true;
      confirms.push(message);
      return false;
    },
    notify: () => {},
  };
  await runDialogs(ui, new FormSession({ spec: { ...spec, waitMs: undefined }, restore }));
  return { selects, confirms };
}

/** The screen of the component restored to `context`, after pressing `keys`. */
function terminalAt(spec: FormSpec, context: FormContext, keys: string[]): string[] {
  const { form } = openForm({ ...spec, waitMs: undefined }, { restore: context, maxHeight: () => 200 });
  for (const key of keys) form.handleInput(key);
  const lines = form.render(400).map((l) => l.replace(/^[›\s]+/, "").trimEnd());
  form.dispose();
  return lines;
}

describe.each(exampleNames())("%s: the terminal and the dialogs agree", (name) => {
  const loaded = loadFormFile(name);
  if (!loaded.ok) throw new Error(loaded.message);
  const spec = loaded.form.spec;
  const choice = spec.questions.findIndex((q) => q.kind !== "text");

  it("every row of a question reads the same in both", async () => {
    const context = answered(spec);
    const { selects } = await dialogsOf(spec, context);
    const rows = selects.filter((s) => !s.title.startsWith("Review") && !s.title.startsWith("Unanswered"));
    if (choice < 0) {
      expect(rows).toEqual([]);
      return;
    }
    const screen = terminalAt(spec, context, new Array(choice).fill("\t"));
    const first = rows.find((s) => s.title.includes(spec.questions[choice].prompt.split("\n")[0].slice(0, 20)));
    expect(first).toBeDefined();
    for (const option of first!.options.filter((o) => /^(\[.\] | {4})?\d+\. /.test(o))) {
      const row = option.split(" — ")[0].trimEnd();
      expect({ row, onScreen: screen.some((l) => l.startsWith(row)) }).toEqual({ row, onScreen: true });
    }
  });

  it("the review summaries read the same in both", async () => {
    // A form of no questions (a confirmation) has no answers to compare.
    if (!isTabbed(spec) || spec.questions.length === 0) return;
    const context = answered(spec);
    const { confirms } = await dialogsOf(spec, context);
    expect(confirms).toHaveLength(1);
    // Shift+Tab from the first question is the review screen.
    const screen = terminalAt(spec, context, ["\x1b[Z"]);
    expect(screen).toContain("Review your answers");
    const entries = confirms[0].split("\n").filter((l) => /^\d+\. /.test(l));
    expect(entries.length).toBeGreaterThan(0);
    for (const line of entries) expect({ line, onScreen: screen.includes(line) }).toEqual({ line, onScreen: true });
  });
});
