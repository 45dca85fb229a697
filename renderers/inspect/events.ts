/**
 * What the route search steps by and merges on: the decisions a person can make
 * at a snapshot, and the key of what the guards can read of it. Keying on what
 * the guards read, never on raw answers, keeps the graph small while still
 * reaching every self-loop and refused event.
 */
import type { SnapshotFrom } from "xstate";
import { holds } from "../../machines/conditions.js";
import { answerValues, type FormEvent, isVisible, openQuestions } from "../../machines/context.js";
import { hasInput } from "../../machines/entered.js";
import { type FormMachine, TIME_UP } from "../../machines/form.js";
import { editorText, formPosition } from "../../machines/position.js";
import { isEmptyPicks, PAGE, type Picks, rowAt } from "../../machines/rows.js";
import { type FormSpec, isTabbed } from "../../machines/spec.js";
import { allOrNone, inverted, selectionAccepted, textProblems, withinMax } from "../../machines/text-rules.js";
import { decidingAnswers, witnessesOfForm } from "./boundaries.js";
import { typedSamples } from "./samples.js";

export type Snap = SnapshotFrom<FormMachine>;

/** XState's own event when the `waiting` state's delay runs out; a replay advances the clock for it. */
export const COOLDOWN_DONE = "xstate.after.cooldown.form.waiting";

/** The machine's own delayed end of the answer clock; a replay advances the clock for it. */
export { TIME_UP };

/** Entries the review screen's digits reach; a question's options are chosen by any row (past nine, by moves: `stepsToRow`). */
const DIGIT_ROWS = 9;

/** Keys, plus an aborted tool call. */
export function formEvents(spec: FormSpec) {
  const decided = decidingAnswers(spec, witnessesOfForm(spec));
  return (snapshot: Snap): FormEvent[] => {
    if (snapshot.status !== "active") return [];
    const position = formPosition(snapshot);
    const c = snapshot.context;
    const nav: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }, { type: "CANCEL" }, { type: "ABORT" }];
    const editing = (samples: string[], extra: FormEvent[] = []): FormEvent[] => {
      const text = editorText(position, c);
      const events: FormEvent[] = [{ type: "SUBMIT_TEXT", text }, { type: "CANCEL" }, { type: "ABORT" }, ...extra];
      if (text === "")
        events.push(...[...new Set(samples)].map((sample): FormEvent => ({ type: "TYPE", text: sample })));
      // A text typed is emptied (its answer taken back); one a default filled in is typed into where it stands.
      else
        events.push(
          { type: "TYPE", text: "" },
          ...(position.kind === "question" && spec.questions[position.q].initial
            ? [{ type: "TYPE", text: `${text}0` } as FormEvent]
            : []),
        );
      return events;
    };
    if (position.kind === "waiting") return [{ type: "CANCEL" }, { type: "ABORT" }, { type: COOLDOWN_DONE } as never];
    // The first key stops the answer clock (and does the rest once it is stopped), or the time runs out.
    if (c.clock === "running") return [{ type: "STOP_CLOCK" }, { type: "ABORT" }, { type: TIME_UP } as never];
    if (position.kind === "folded") return [{ type: "UNFOLD" }, { type: "ABORT" }];
    const discarding: FormEvent[] = [{ type: "CANCEL" }, { type: "CONFIRM" }, { type: "RESUME" }, { type: "ABORT" }];
    if (position.kind === "review") {
      if (position.mode === "discarding") return discarding;
      if (position.mode === "writing") return editing(["Blue"], [{ type: "FOLD" }]);
      const goTo: FormEvent[] = spec.questions.slice(0, DIGIT_ROWS).map((_, k) => ({ type: "SELECT", row: k }));
      const cursor: FormEvent[] = spec.questions.length
        ? [
            { type: "MOVE", delta: -1 },
            { type: "MOVE", delta: 1 },
            { type: "MOVE", delta: -PAGE },
            { type: "MOVE", delta: PAGE },
            { type: "MOVE_TO", to: "first" },
            { type: "MOVE_TO", to: "last" },
          ]
        : [];
      const extra: FormEvent[] = [
        ...(spec.additionalNotes ? [{ type: "NOTE" } as const] : []),
        ...(spec.declinable ? [{ type: "DECLINE" } as const] : []),
      ];
      return [{ type: "CONFIRM" }, ...cursor, ...goTo, ...extra, ...nav, { type: "FOLD" }];
    }
    if (position.kind !== "question") return [];
    const q = spec.questions[position.q];
    if (position.mode === "discarding") return discarding;
    if (position.mode === "noting") return editing(["Blue"], [{ type: "FOLD" }]);
    if (position.mode === "typing") {
      const tabs: FormEvent[] = [{ type: "NEXT_TAB" }, { type: "PREV_TAB" }];
      const deciding = [...decided.typed[position.q]];
      return editing(
        [...typedSamples(q.text, q.placeholder), ...deciding],
        [...(isTabbed(spec) ? tabs : []), { type: "FOLD" }],
      );
    }
    // The row after the options: a typed choice, or "Type something.".
    const afterOptions = q.options.length;
    return [
      { type: "MOVE", delta: 1 },
      { type: "MOVE", delta: -1 },
      { type: "MOVE_TO", to: "last" },
      { type: "SELECT", row: 0 },
      // Past the digits only where it is there: no key sends a row that is not.
      ...(afterOptions < DIGIT_ROWS || rowAt(q, c.typed[position.q], afterOptions)
        ? [{ type: "SELECT", row: afterOptions } as FormEvent]
        : []),
      ...[...decided.options[position.q]].filter((row) => row !== 0).map((row): FormEvent => ({ type: "SELECT", row })),
      { type: "TOGGLE" },
      { type: "CONFIRM" },
      ...(q.kind === "multi" ? [{ type: "TOGGLE_ALL" } as FormEvent, { type: "INVERT" } as FormEvent] : []),
      ...(q.notes ? [{ type: "NOTE" } as FormEvent] : []),
      ...nav,
      { type: "FOLD" },
    ];
  };
}

/**
 * Whether the highlighted option is picked (what Space or Enter does to the picks: moving from a
 * picked option to another merged with staying, so no route picked a second one, nor the other
 * option of a yes/no whose default is picked), and at a multi-select whether the picks of `a` (all
 * or none) and `i` (invert) stay within the largest count (their guards). Only where a count or a
 * default makes it matter: elsewhere it would double the search at every answered question.
 */
function pickReadings(q: FormSpec["questions"][number], picks: Picks, cursor: number): Array<boolean | number> {
  if (!q.count && !q.initial) return [];
  const highlighted = picks.options.includes(cursor);
  if (q.kind !== "multi") return [highlighted];
  // `i` fits a largest count only once n − max are picked: the walk must tell each count up to there apart.
  const max = q.count?.max;
  const towardInvert = max === undefined ? 0 : Math.min(picks.options.length, q.options.length - max);
  return [highlighted, withinMax(q, allOrNone(q, picks)), withinMax(q, inverted(q, picks)), towardInvert];
}

/**
 * What the guards can read of a snapshot, in the step from it by any event the search offers (the
 * eventless moves after it too: a seek, a hidden question passed): two snapshots with one key take
 * the same transitions by every event (`__tests__/guard-key.test.ts` checks it on snapshots random
 * walks reach). The search expands the first snapshot of each key only, so a reading left out
 * would be tried one way only. Submit reads whether a required question is open, a seek (an answer
 * given from the review screen) which are, up to the first: the key holds the first open one, and
 * all of them only at a question reached from the review screen (holding them everywhere would
 * grow the search with the product of the answers). Esc reads whether anything was entered
 * (`hasInput`); at a question a condition reads, the conditions read what its next answer can be.
 */
export function guardKey(spec: FormSpec) {
  const branching = spec.questions.some((q) => q.visibility.kind !== "always");
  const decided = decidingAnswers(spec, witnessesOfForm(spec));
  const decides = (q: number) => decided.options[q].size > 0 || decided.typed[q].size > 0;
  const conditions = spec.questions.flatMap((q) => (q.visibility.kind === "when" ? q.visibility.conditions : []));
  const readingOf = spec.questions.map((q) => conditions.filter((condition) => condition.field === q.id));
  /**
   * What the question's next answer can be, as the conditions would read it: the highlighted row
   * chosen (or ticked), and at a multi-select also each row a digit ticks (ticks add up: the picks
   * themselves would tell apart sets no condition reads differently); the typed text itself (each
   * a condition's boundary).
   */
  const answerReadings = (q: number, c: Snap["context"], text: string) => {
    const question = spec.questions[q];
    const values = [...c.picks[q].options.map((i) => question.options[i].value), ...c.picks[q].custom];
    const chosen = (at: number) => {
      const row = rowAt(question, c.typed[q], at);
      if (!row || row.kind === "other") return "";
      const value = row.kind === "option" ? question.options[row.index].value : c.typed[q][row.index];
      const after =
        question.kind !== "multi"
          ? [value]
          : values.includes(value)
            ? values.filter((v) => v !== value)
            : [...values, value];
      // Emptied, a multi-select is unanswered: no condition holds on it.
      return readingOf[q].map((condition) => Number(holds(condition, after.length ? after : undefined))).join("");
    };
    const ticked = question.kind === "multi" ? [0, question.options.length, ...decided.options[q]].map(chosen) : [];
    return [text, chosen(c.cursors[q]), ...ticked];
  };
  return (snapshot: Snap): string => {
    const c = snapshot.context;
    const position = snapshot.status === "active" ? formPosition(snapshot) : undefined;
    const here =
      position?.kind === "question"
        ? [
            rowAt(spec.questions[position.q], c.typed[position.q], c.cursors[position.q])?.kind,
            // Which rows there are: a digit past the options picks a typed choice or opens the editor.
            c.typed[position.q].length,
            !isEmptyPicks(c.picks[position.q]),
            selectionAccepted(spec.questions[position.q], c.picks[position.q]),
            c.drafts[position.q] !== "",
            spec.questions[position.q].text
              ? textProblems(spec.questions[position.q].text!, c.drafts[position.q]).length
              : -1,
            editorText(position, c) !== "",
            ...pickReadings(spec.questions[position.q], c.picks[position.q], c.cursors[position.q]),
            // Where an answer decides a condition: the answer, and how the conditions would read the one
            // Enter or Space gives at the highlighted row (not the row itself: moving along options
            // alike is no new place).
            ...(decides(position.q) ? answerReadings(position.q, c, editorText(position, c)) : []),
          ]
        : position?.kind === "review"
          ? [c.additionalText !== "", c.reviewCursor]
          : [];
    const visible = branching ? spec.questions.map((_, i) => Number(isVisible(spec, c, i))).join("") : "";
    // Each condition's reading, not only whether all of a question's hold: one met while another is
    // not yet would otherwise merge with none met, and a route could not meet them one after another.
    const met = conditions
      .map((condition) => Number(holds(condition, answerValues(spec, c, condition.field))))
      .join("");
    const open = openQuestions(spec, c);
    // A seek (an answer given from the review screen) reads each question's openness up to the first open.
    const seek = c.returnToReview ? open.join(",") : "";
    // The direction of travel matters only where a hidden question passes it on.
    const direction = branching ? c.direction : "";
    return JSON.stringify({
      v: snapshot.value,
      first: open[0] ?? -1,
      seek,
      visible,
      met,
      direction,
      here,
      back: c.returnToReview,
      clock: c.clock,
      folded: c.foldedAt,
      entered: hasInput(spec, c),
    });
  };
}
