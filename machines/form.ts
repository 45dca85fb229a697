/**
 * One statechart for every form.
 *
 * `createFormMachine(spec)` builds an XState v5 machine with one state per
 * question (`q1`, `q2` …, each with `choosing`, and where the question has
 * them `typing` and `noting` sub-states), a `review` state (the Submit tab of
 * a tabbed form), an optional `waiting` countdown, and the final states
 * `submitted` and `cancelled`. Keys are not events: renderers translate key
 * bytes into the semantic events of `FormEvent`, so tests, the terminal view
 * and the dialog front end all drive the same machine. The machine is built
 * from the spec's shape alone (`chartShape`); a form runs it with its spec
 * as input, and the guards and actions read the spec from the context.
 *
 * UX contract encoded here:
 * - single-select: Enter (or a number key) answers with the highlighted option;
 * - multi-select: Space toggles, Enter confirms; at least one choice unless optional,
 *   or as many as its count asks for;
 * - "Type something." opens an editor pre-filled with the earlier draft;
 * - Esc backs out one level: editor → list, list → cancel the form;
 * - a tabbed form's Submit tab refuses to submit while a required question is open;
 *   a form that can be declined is declined there (final state `declined`);
 * - a cancelled form still reports the answers given so far.
 *
 * Every state is written as a literal through `createStateConfig`, so the
 * compiler checks each action, guard, delay and event name against `setup`.
 */
import { chartMoves, s } from "./chart-moves.js";
import { formResult, initialContext } from "./context.js";
import { choiceQuestion, textQuestion } from "./question-states.js";
import { Recent } from "./recent.js";
import { questionStateKey } from "./setup.js";
import { type ChartShape, chartShape } from "./shape.js";
import type { FormSpec } from "./spec.js";

export { type FormInput, type FormTag, formSetup, questionStateKey } from "./setup.js";

/** The statechart of a spec's shape; run it with the spec as input (`{ spec }`). */
export function createFormMachine(spec: FormSpec) {
  return machineOf(chartShape(spec));
}

function machineOf(shape: ChartShape) {
  const moves = chartMoves(shape);
  const {
    qs,
    tabbed,
    stateOf,
    forward,
    backward,
    cancel,
    askFirst,
    discarding,
    reviewHoldsInput,
    foldable,
    fold,
    seeks,
  } = moves;

  const review = s.createStateConfig({
    tags: "review",
    initial: "reviewing",
    // Back with a question still open: the seek starts at the first question and passes over the others.
    always: seeks ? [{ guard: "seekingOpen" as const, target: stateOf(0), actions: "seekOpen" as const }] : [],
    on: { NEXT_TAB: forward(-1), PREV_TAB: backward(qs.length) },
    states: {
      reviewing: {
        tags: "reviewing",
        entry: "clearReturn",
        on: {
          ...(tabbed ? fold("review.reviewing") : {}),
          // ↑/↓ move a cursor over the entries and the submit line (where it starts): Enter on an
          // entry goes back to that question, and its next answer comes back here; on the submit line
          // Enter submits. A number key (or a click on an entry) is the cursor put there and Enter.
          ...(qs.length > 0
            ? {
                MOVE: { actions: "moveReviewCursor" as const },
                MOVE_TO: { actions: "moveReviewCursor" as const },
                SELECT: {
                  guard: "entryExists" as const,
                  actions: ["pointReviewCursor" as const, "raiseConfirm" as const],
                },
              }
            : {}),
          CONFIRM: [
            ...qs.map((_, k) => ({
              guard: { type: "reviewCursorOn" as const, params: { q: k } },
              target: stateOf(k),
              actions: "markReturn" as const,
            })),
            { guard: "canSubmit" as const, target: "#form.submitted", actions: "markSubmitted" as const },
          ],
          CANCEL: reviewHoldsInput ? askFirst : cancel,
          ...(shape.additionalNotes ? { NOTE: { target: "writing" } } : {}),
          ...(shape.declinable ? { DECLINE: { target: "#form.declined", actions: "markDeclined" as const } } : {}),
        },
      },
      ...(reviewHoldsInput ? { discarding: discarding("reviewing") } : {}),
      ...(shape.additionalNotes
        ? {
            writing: {
              tags: "writing",
              on: {
                ...(tabbed ? fold("review.writing") : {}),
                TYPE: { actions: "writeAdditional" },
                SUBMIT_TEXT: { target: "reviewing", actions: "writeAdditional" },
                CANCEL: { target: "reviewing" },
              },
            },
          }
        : {}),
    },
  });

  // A form of no questions (a confirmation that can be declined) opens on its review tab.
  const first = qs.length === 0 && tabbed ? "review" : questionStateKey(0);
  // The answer clock starts when the form is shown: after the countdown, or at once.
  const startClock = shape.timed ? ["startClock" as const] : [];
  const waiting = s.createStateConfig({
    tags: "waiting",
    entry: "markWaited",
    after: { cooldown: { target: first, actions: startClock } },
    on: { CANCEL: cancel },
  });
  // Nobody pressed a key in time: the form closes with what it holds and the recommended options.
  const clock = shape.timed
    ? {
        TIME_UP: { guard: "clockRunning" as const, target: "#form.timedOut", actions: "takeRecommended" as const },
        STOP_CLOCK: { guard: "clockRunning" as const, actions: ["cancelClock" as const, "markClockStopped" as const] },
      }
    : {};

  const questionStates = Object.fromEntries(
    qs.map((q, k) => [questionStateKey(k), q.kind === "text" ? textQuestion(moves, k) : choiceQuestion(moves, k)]),
  );
  // Folded to one line; UNFOLD goes back to the question or review screen, and the mode, it left.
  const folded = s.createStateConfig({
    tags: "folded",
    on: {
      UNFOLD: foldable.map((at) => ({
        guard: { type: "foldedAt" as const, params: { at } },
        target: `#form.${at}`,
        actions: "clearFolded" as const,
      })),
    },
  });

  return s.createMachine({
    id: "form",
    context: ({ input }) => ({ ...(input.restore ?? initialContext(input.spec)), spec: input.spec }),
    initial: shape.waits ? "waiting" : first,
    entry: shape.timed && !shape.waits ? startClock : [],
    on: { ABORT: cancel, ...clock },
    // A seek ends where no question passes it on: at the first open question, or on the review screen.
    always: seeks ? [{ guard: "seeking" as const, actions: "stopSeeking" as const }] : [],
    states: {
      ...(shape.waits ? { waiting } : {}),
      ...questionStates,
      ...(tabbed ? { review } : {}),
      folded,
      submitted: { type: "final" },
      cancelled: { type: "final" },
      ...(shape.declinable ? { declined: { type: "final" as const } } : {}),
      ...(shape.timed ? { timedOut: { type: "final" as const } } : {}),
    },
    output: ({ context }) => formResult(context.spec, context),
  });
}

export type FormMachine = ReturnType<typeof machineOf>;

/**
 * Machines kept for shapes seen lately: at most 8, of 100 questions in all (a
 * machine of 50 questions holds ~0.6 MB). An open form holds its own machine,
 * so letting one go here is safe.
 */
const machines = new Recent<FormMachine>(8, 100);

/**
 * The machine of a spec's shape, made once per shape: every form of that
 * shape shares the definition (the spec and a restored draft come in
 * through `input`); each form runs its own actor.
 */
export function formMachine(spec: FormSpec): FormMachine {
  // A form asked again shares its spec (`sharedSpec`): its shape is worked out once.
  let known = bySpec.get(spec);
  if (!known) {
    const shape = chartShape(spec);
    known = { key: JSON.stringify(shape), questions: shape.questions.length };
    bySpec.set(spec, known);
  }
  const machine = machines.get(known.key) ?? createFormMachine(spec);
  machines.set(known.key, machine, known.questions + 1);
  return machine;
}

/** Each spec's shape as the machines are kept by (specs are never changed); held no longer than the spec. */
const bySpec = new WeakMap<FormSpec, { key: string; questions: number }>();
