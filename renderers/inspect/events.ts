/**
 * What the route search steps by and merges on: the events a person can cause
 * from a snapshot, and the key of what the guards can see of it. Keying on what
 * the guards see, never on raw answers, keeps the graph small while still
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
      // An editor a default filled in is typed into where it stands, or emptied (its answer taken back).
      else if (position.kind === "question" && spec.questions[position.q].initial)
        events.push({ type: "TYPE", text: `${text}0` }, { type: "TYPE", text: "" });
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
 * What the guards can see of a snapshot. Submit's guard asks whether a required question is open:
 * the key holds only whether one is (a count would grow the search with the product of the answers).
 * At a question a condition reads, the key also holds its picks and draft, so a route can give each
 * answer at a condition's boundary.
 * Every guard's reading must be in the key: the walk keeps the first snapshot it meets under a key
 * and drops the rest, so a guard whose reading two merged snapshots differ in is only ever tried one
 * way. Esc asks first once anything was entered (`hasInput`): when answering a required question
 * from the review screen carried the person on to the next open one before tabbing reached it
 * untouched, Esc there never cancelled outright.
 */
export function guardKey(spec: FormSpec) {
  const branching = spec.questions.some((q) => q.visibility.kind !== "always");
  const required = spec.questions.map((q) => q.required);
  const deciding = decidingAnswers(spec, witnessesOfForm(spec));
  const decides = (q: number) => deciding.options[q].size > 0 || deciding.typed[q].size > 0;
  const conditions = spec.questions.flatMap((q) => (q.visibility.kind === "when" ? q.visibility.conditions : []));
  return (snapshot: Snap): string => {
    const c = snapshot.context;
    const position = snapshot.status === "active" ? formPosition(snapshot) : undefined;
    const here =
      position?.kind === "question"
        ? [
            rowAt(spec.questions[position.q], c.typed[position.q], c.cursors[position.q])?.kind,
            !isEmptyPicks(c.picks[position.q]),
            selectionAccepted(spec.questions[position.q], c.picks[position.q]),
            c.drafts[position.q] !== "",
            spec.questions[position.q].text
              ? textProblems(spec.questions[position.q].text!, c.drafts[position.q]).length
              : -1,
            editorText(position, c) !== "",
            ...pickReadings(spec.questions[position.q], c.picks[position.q], c.cursors[position.q]),
            ...(decides(position.q) ? [c.picks[position.q], editorText(position, c)] : []),
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
    const open = branching ? openQuestions(spec, c).length > 0 : c.answered.some((a, i) => !a && required[i]);
    // The direction of travel matters only where a hidden question passes it on.
    const direction = branching ? c.direction : "";
    return JSON.stringify({
      v: snapshot.value,
      open,
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
