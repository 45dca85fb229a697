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
import { formResult, initialContext } from "./context.js";
import { Recent } from "./recent.js";
import { type AnswerAction, formSetup, questionStateKey } from "./setup.js";
import { type ChartShape, chartShape } from "./shape.js";
import type { FormSpec } from "./spec.js";

export { type FormInput, type FormTag, formSetup, questionStateKey } from "./setup.js";

/** One setup for every form: its guards and actions read the spec from the context. */
const s = formSetup();

/** The statechart of a spec's shape; run it with the spec as input (`{ spec }`). */
export function createFormMachine(spec: FormSpec) {
  return machineOf(chartShape(spec));
}

function machineOf(shape: ChartShape) {
  const qs = shape.questions;
  const tabbed = shape.tabbed;

  // Tabs move one step; a hidden question passes the move on in the same
  // direction (its eventless `always` transitions), so each question has a
  // fixed pair of neighbours and every guarded skip is one edge of the chart.
  const stateOf = (j: number) => (j < 0 || j >= qs.length ? "#form.review" : `#form.${questionStateKey(j)}`);
  const forward = (k: number) => ({ target: stateOf(k + 1), actions: "goForward" as const });
  const backward = (k: number) => ({ target: stateOf(k - 1), actions: "goBackward" as const });
  const cancel = { target: "#form.cancelled", actions: "markCancelled" as const };
  /** Esc once something was entered asks first (a second Esc or Enter discards); before that it cancels. */
  const askFirst = [{ guard: "hasInput" as const, target: "discarding" }, cancel];
  // A question shown by a condition is shown once an earlier one is answered (a condition on an
  // unanswered question is false): by the person, so Esc there always asks, unless a default
  // answer may have shown it; then Esc asks exactly when something was entered, as the footer says.
  const escFrom = (k: number) => (qs[k].visibility === "when" && !shape.defaults ? { target: "discarding" } : askFirst);
  const discarding = (back: string) =>
    s.createStateConfig({ tags: "discarding", on: { CANCEL: cancel, CONFIRM: cancel, RESUME: { target: back } } });
  /** A lone single-choice question without a typed answer or notes holds nothing before it ends: Esc just cancels. */
  const holdsInput = (k: number) => tabbed || qs[k].kind !== "single" || qs[k].allowOther || qs[k].notes;
  /** A review screen with nothing before it to answer (a bare confirmation) holds no input either. */
  const reviewHoldsInput = qs.length > 0 || shape.additionalNotes;
  const tabs = (k: number) => (tabbed ? { NEXT_TAB: forward(k), PREV_TAB: backward(k) } : {});
  /**
   * Folding keeps the form's place: each state the form can be folded from
   * records itself, and UNFOLD goes back to the one recorded (the context,
   * answers and highlights included, is untouched).
   */
  const foldable: string[] = [];
  const fold = (at: string) => {
    foldable.push(at);
    return { FOLD: { target: "#form.folded", actions: { type: "markFolded" as const, params: { at } } } };
  };
  /** Whether a seek can happen at all: an answer given from the review screen that may leave a question open. */
  const seeks = tabbed && qs.some((q, k) => q.autoAdvance && qs.some((o, j) => j !== k && o.required));
  /**
   * After an answer: when the person came from the review screen, back there,
   * and from there on to the first question still open (a seek) if there is
   * one; otherwise on to the next question.
   */
  const advance = (k: number) => {
    if (!tabbed || !qs[k].autoAdvance) return {};
    const back = { guard: "returningToReview" as const, target: "#form.review" };
    if (seeks) return { ADVANCE: [{ ...back, actions: "startSeek" as const }, forward(k)] };
    // From the last question, moving on is the review screen anyway.
    return { ADVANCE: k === qs.length - 1 ? [forward(k)] : [back, forward(k)] };
  };
  /** A seek goes on past question `k` when it is not open and a later question may be. */
  const seekOn = (k: number) =>
    seeks && qs.some((q, j) => j > k && q.required)
      ? [{ guard: { type: "passedWhileSeeking" as const, params: { q: k } }, target: stateOf(k + 1) }]
      : [];
  const skipHidden = (k: number) =>
    qs[k].visibility === "always" || !tabbed
      ? []
      : (["forward", "backward"] as const).map((direction) => ({
          guard: { type: "hiddenGoing" as const, params: { q: k, direction } },
          target: stateOf(direction === "forward" ? k + 1 : k - 1),
          actions: { type: "markPassed" as const, params: { q: k } },
        }));
  /** Where an answer leads: a lone question submits; a tabbed form moves on when the question auto-advances. */
  const answered = (k: number, action: AnswerAction) =>
    tabbed
      ? { actions: qs[k].autoAdvance ? [action, "advance" as const] : [action] }
      : { target: "#form.submitted", actions: [action, "markSubmitted" as const] };

  const textQuestion = (k: number) => {
    const p = { q: k };
    return s.createStateConfig({
      tags: "question",
      initial: "typing",
      always: [...seekOn(k), ...skipHidden(k)],
      on: { ...tabs(k), ...advance(k) },
      states: {
        typing: {
          tags: "typing",
          on: {
            ...fold(`${questionStateKey(k)}.typing`),
            TYPE: { actions: { type: "typeAnswer", params: p } },
            SUBMIT_TEXT: {
              guard: { type: "textAccepted", params: p },
              ...answered(k, { type: "answerText", params: p }),
            },
            CANCEL: escFrom(k),
          },
        },
        discarding: discarding("typing"),
      },
    });
  };

  const choiceQuestion = (k: number) => {
    const q = qs[k];
    const p = { q: k };
    const toEditor = q.allowOther ? [{ guard: { type: "onOtherRow" as const, params: p }, target: "typing" }] : [];
    const choose =
      q.kind === "single"
        ? {
            CONFIRM: [
              ...toEditor,
              {
                guard: { type: "onOptionRow" as const, params: p },
                ...answered(k, { type: "pickHighlighted", params: p }),
              },
            ],
            ...(q.allowOther ? { TOGGLE: toEditor } : {}),
          }
        : {
            CONFIRM: [
              ...toEditor,
              {
                guard: { type: "selectionAccepted" as const, params: p },
                ...answered(k, { type: "confirmSelection", params: p }),
              },
            ],
            TOGGLE: [...toEditor, { actions: { type: "toggleHighlighted" as const, params: p } }],
            ...(qs[k].allMayBeChosen
              ? {
                  TOGGLE_ALL: {
                    guard: { type: "allFit" as const, params: p },
                    actions: { type: "toggleAll" as const, params: p },
                  },
                }
              : {}),
            INVERT: {
              guard: { type: "invertedFits" as const, params: p },
              actions: { type: "invert" as const, params: p },
            },
          };
    const noting = s.createStateConfig({
      tags: "noting",
      // The note is whatever is in its editor: Enter and Esc both close it, nothing typed is lost.
      on: {
        ...(q.notes ? fold(`${questionStateKey(k)}.noting`) : {}),
        TYPE: { actions: { type: "writeNote", params: p } },
        SUBMIT_TEXT: { target: "choosing", actions: { type: "writeNote", params: p } },
        CANCEL: { target: "choosing" },
      },
    });
    // Leaving the editor by Tab keeps what it holds (the parent's move applies when it is empty).
    const keepOnTab = tabbed
      ? {
          NEXT_TAB: {
            guard: { type: "draftKept" as const, params: p },
            target: stateOf(k + 1),
            actions: [{ type: "keepDraft" as const, params: p }, "goForward" as const],
          },
          PREV_TAB: {
            guard: { type: "draftKept" as const, params: p },
            target: stateOf(k - 1),
            actions: [{ type: "keepDraft" as const, params: p }, "goBackward" as const],
          },
        }
      : {};
    const typing = s.createStateConfig({
      tags: "typing",
      on: {
        ...(q.allowOther ? fold(`${questionStateKey(k)}.typing`) : {}),
        TYPE: { actions: { type: "saveDraft", params: p } },
        SUBMIT_TEXT:
          q.kind === "single"
            ? // A lone question submits; in a tabbed form the editor closes, then ADVANCE moves on.
              {
                guard: "hasText",
                target: tabbed ? "choosing" : "#form.submitted",
                ...answered(k, { type: "answerText", params: p }),
              }
            : { guard: "hasText", target: "choosing", actions: { type: "addTypedChoice", params: p } },
        CANCEL: { target: "choosing" },
        ...keepOnTab,
      },
    });
    return s.createStateConfig({
      tags: "question",
      initial: "choosing",
      always: [...seekOn(k), ...skipHidden(k)],
      on: { ...tabs(k), ...advance(k) },
      states: {
        choosing: {
          tags: "choosing",
          on: {
            ...fold(`${questionStateKey(k)}.choosing`),
            MOVE: { actions: { type: "move", params: p } },
            MOVE_TO: { actions: { type: "moveTo", params: p } },
            SELECT: {
              guard: { type: "rowExists", params: p },
              actions: [{ type: "moveTo", params: p }, q.kind === "multi" ? "raiseToggle" : "raiseConfirm"],
            },
            CANCEL: holdsInput(k) ? escFrom(k) : cancel,
            ...choose,
            ...(q.notes ? { NOTE: { guard: { type: "onOptionRow", params: p }, target: "noting" } } : {}),
          },
        },
        ...(holdsInput(k) ? { discarding: discarding("choosing") } : {}),
        ...(q.notes ? { noting } : {}),
        ...(q.allowOther ? { typing } : {}),
      },
    });
  };

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
          CONFIRM: { guard: "canSubmit", target: "#form.submitted", actions: "markSubmitted" },
          // A number key goes back to that question; its next answer comes back here.
          SELECT: qs.map((_, k) => ({
            guard: { type: "selectsQuestion" as const, params: { q: k } },
            target: stateOf(k),
            actions: "markReturn" as const,
          })),
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
    qs.map((q, k) => [questionStateKey(k), q.kind === "text" ? textQuestion(k) : choiceQuestion(k)]),
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
  const shape = chartShape(spec);
  const key = JSON.stringify(shape);
  const machine = machines.get(key) ?? machineOf(shape);
  machines.set(key, machine, shape.questions.length + 1);
  return machine;
}
