/**
 * One statechart for every form, built from the spec's shape alone
 * (`chartShape`): a form runs it with its spec as input. Keys are not events:
 * renderers translate keys into `FormEvent`s, so tests, the terminal view and
 * the dialogs drive the same machine. Every state is written through
 * `createStateConfig`, so the compiler checks each name against `setup`.
 * Contract: Enter answers with the highlighted option (Space ticks in a
 * multi-select); Esc backs out one level; Submit refuses while a required
 * question is open; a cancelled form still reports the answers given.
 */
import { chartMoves, fold, foldTargets } from "./chart-moves.js";
import { formResult, initialContext } from "./context.js";
import { choiceQuestion, textQuestion } from "./question-states.js";
import { Recent } from "./recent.js";
import { formChart, questionStateKey, TIME_UP } from "./setup.js";
import { type ChartShape, chartShape } from "./shape.js";
import type { FormSpec } from "./spec.js";

export { type FormInput, type FormTag, formChart, questionStateKey, TIME_UP } from "./setup.js";

export function createFormMachine(spec: FormSpec) {
  return machineOf(chartShape(spec));
}

function machineOf(shape: ChartShape) {
  const moves = chartMoves(shape);
  const { qs, tabbed, stateOf, tabForward, tabBackward, cancel, askFirst, discarding, reviewHoldsInput, seeks } = moves;

  const review = formChart.createStateConfig({
    tags: "review",
    initial: "reviewing",
    always: seeks ? [{ guard: "seekingOpen" as const, target: stateOf(0), actions: "seekOpen" as const }] : [],
    // A confirmation (no questions) has no tabs to go along.
    on: qs.length > 0 ? { NEXT_TAB: tabForward(-1), PREV_TAB: tabBackward(qs.length) } : {},
    states: {
      reviewing: {
        tags: "reviewing",
        entry: "clearReturn",
        on: {
          ...fold("review.reviewing"),
          // A number key (or a click on an entry) is the cursor put there and Enter.
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
                ...fold("review.writing"),
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
  const startClock = shape.timed ? ["startClock" as const] : [];
  const waiting = formChart.createStateConfig({
    tags: "waiting",
    entry: "markWaited",
    after: { cooldown: { target: first, actions: startClock } },
    on: { CANCEL: cancel },
  });
  const clock = shape.timed
    ? {
        [TIME_UP]: { guard: "clockRunning" as const, target: "#form.timedOut", actions: "takeRecommended" as const },
        STOP_CLOCK: { guard: "clockRunning" as const, actions: ["cancelClock" as const, "markClockStopped" as const] },
      }
    : {};

  const questionStates = Object.fromEntries(
    qs.map((q, k) => [questionStateKey(k), q.kind === "text" ? textQuestion(moves, k) : choiceQuestion(moves, k)]),
  );
  const folded = formChart.createStateConfig({
    tags: "folded",
    on: {
      UNFOLD: foldTargets(shape).map((at) => ({
        guard: { type: "foldedAt" as const, params: { at } },
        target: `#form.${at}`,
        actions: "clearFolded" as const,
      })),
    },
  });

  return formChart.createMachine({
    id: "form",
    context: ({ input }) => ({ ...(input.restore ?? initialContext(input.spec)), spec: input.spec }),
    initial: shape.waits ? "waiting" : first,
    entry: shape.timed && !shape.waits ? startClock : [],
    on: { ABORT: cancel, ...clock },
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

/** At most 8 machines, of 100 questions in all (one of 50 questions holds ~0.6 MB); an open form holds its own. */
const machines = new Recent<FormMachine>(8, 100);

/** A spec's shape as the key of its machine, written once per spec object (one shared spec per content). */
const shapeKeys = new WeakMap<FormSpec, { key: string; questions: number }>();

/** Every form of one shape shares the definition; each runs its own actor, with its spec as input. */
export function formMachine(spec: FormSpec): FormMachine {
  let known = shapeKeys.get(spec);
  if (!known) {
    const shape = chartShape(spec);
    known = { key: JSON.stringify(shape), questions: shape.questions.length };
    shapeKeys.set(spec, known);
  }
  let machine = machines.get(known.key);
  if (!machine) {
    machine = machineOf(chartShape(spec));
    machines.set(known.key, machine, known.questions + 1);
  }
  return machine;
}
