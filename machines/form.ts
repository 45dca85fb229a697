/**
 * One statechart for every form.
 *
 * `createFormMachine(spec)` builds an XState v5 machine with one state per
 * question (`q1`, `q2` …, each with `choosing`, and where the question has
 * them `typing` and `noting` sub-states), a `review` state (the Submit tab of
 * a tabbed form), an optional `waiting` countdown, and the final states
 * `submitted` and `cancelled`. Keys are not events: renderers translate key
 * bytes into the semantic events of `FormEvent`, so tests, the terminal view
 * and the dialog front end all drive the same machine.
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
import { assertEvent, assign, raise, setup } from "xstate";
import {
  canSubmit,
  clamp,
  type Direction,
  type FormContext,
  type FormEvent,
  type FormResult,
  formResult,
  hasInput,
  initialContext,
  isVisible,
  pruneHidden,
  replaceAt,
  shownPosition,
} from "./context.js";
import { NO_PICKS, type Picks, type Row, rowAt, rowCount } from "./rows.js";
import { type FormSpec, isTabbed } from "./spec.js";
import { selectionAccepted, selectionAnswers, textProblems } from "./text-rules.js";

/** Raised by the machine itself after an answer: move on to the next visible question. */
type InternalEvent = { type: "ADVANCE" };

/** What a state is, for renderers: read with `snapshot.hasTag` (see position.ts). */
export type FormTag =
  | "waiting"
  | "question"
  | "choosing"
  | "typing"
  | "noting"
  | "review"
  | "reviewing"
  | "writing"
  | "discarding";

export interface FormInput {
  /** Context to start from instead of a blank form (a restored draft). */
  restore?: FormContext;
}

type QParam = { q: number };
type AnswerAction =
  | { type: "pickHighlighted"; params: QParam }
  | { type: "confirmSelection"; params: QParam }
  | { type: "answerText"; params: QParam };

/** The state key of question `k` (zero-based): `q1`, `q2` … */
export function questionStateKey(k: number): string {
  return `q${k + 1}`;
}

/** The named guards, actions and delays of a form, typed for its states. */
export function formSetup(spec: FormSpec) {
  const qs = spec.questions;
  const row = (context: FormContext, q: number): Row | undefined => rowAt(qs[q], context.picks[q], context.cursors[q]);
  const lastRow = (q: number, picks: Picks) => rowCount(qs[q], picks) - 1;
  /** Every option ticked, or none when all already are; typed choices stay. */
  const allOrNone = (q: number, current: Picks): Picks => {
    const all = qs[q].options.map((_, i) => i);
    return { options: current.options.length === all.length ? [] : all, custom: current.custom };
  };
  const inverted = (q: number, current: Picks): Picks => ({
    options: qs[q].options.map((_, i) => i).filter((i) => !current.options.includes(i)),
    custom: current.custom,
  });
  const withinMax = (q: number, picks: Picks) =>
    picks.options.length + picks.custom.length <= (qs[q].count?.max ?? Number.POSITIVE_INFINITY);
  /** Apply an answer change, then drop answers it hid. */
  const answer = (context: FormContext, q: number, picks: Picks, answered: boolean, extra: Partial<FormContext> = {}) =>
    pruneHidden(spec, {
      ...context,
      ...extra,
      picks: replaceAt(context.picks, q, picks),
      answered: replaceAt(context.answered, q, answered),
    });

  return setup({
    types: {} as {
      context: FormContext;
      events: FormEvent | InternalEvent;
      input: FormInput;
      output: FormResult;
      tags: FormTag;
    },
    delays: { cooldown: spec.waitMs ?? 0 },
    guards: {
      onOtherRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "other",
      onOptionRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "option",
      selectionAccepted: ({ context }, p: QParam) => selectionAccepted(qs[p.q], context.picks[p.q]),
      rowExists: ({ context, event }, p: QParam) =>
        event.type === "SELECT" && event.row >= 0 && event.row <= lastRow(p.q, context.picks[p.q]),
      hasText: ({ event }) => event.type === "SUBMIT_TEXT" && event.text.trim() !== "",
      /** A number key on the review screen names the questions shown, counted in order. */
      selectsQuestion: ({ context, event }, p: QParam) =>
        event.type === "SELECT" && event.row === shownPosition(spec, context, p.q),
      /** Something was entered: Esc asks before it throws that away. */
      hasInput: ({ context }) => hasInput(spec, context),
      returningToReview: ({ context }) => context.returnToReview,
      /** The editor of a typed choice holds text (Tab keeps it as the answer). */
      draftKept: ({ context }, p: QParam) => context.drafts[p.q].trim() !== "",
      textAccepted: ({ event }, p: QParam) =>
        event.type === "SUBMIT_TEXT" && textProblems(qs[p.q].text!, event.text).length === 0,
      hiddenGoing: ({ context }, p: { q: number; direction: Direction }) =>
        context.direction === p.direction && !isVisible(spec, context, p.q),
      canSubmit: ({ context }) => canSubmit(spec, context),
      /** Inverting keeps within the question's largest count. */
      invertedFits: ({ context }, p: QParam) => withinMax(p.q, inverted(p.q, context.picks[p.q])),
    },
    actions: {
      move: assign(({ context, event }, p: QParam) => {
        assertEvent(event, "MOVE");
        const cursor = clamp(context.cursors[p.q] + event.delta, 0, lastRow(p.q, context.picks[p.q]));
        return { cursors: replaceAt(context.cursors, p.q, cursor) };
      }),
      moveTo: assign(({ context, event }, p: QParam) => {
        assertEvent(event, ["SELECT", "MOVE_TO"]);
        const last = lastRow(p.q, context.picks[p.q]);
        const target = event.type === "SELECT" ? event.row : event.to === "last" ? last : 0;
        return { cursors: replaceAt(context.cursors, p.q, clamp(target, 0, last)) };
      }),
      pickHighlighted: assign(({ context }, p: QParam) =>
        answer(context, p.q, { options: [context.cursors[p.q]], custom: [] }, true),
      ),
      toggleHighlighted: assign(({ context }, p: QParam) => {
        const current = context.picks[p.q];
        const r = row(context, p.q);
        let next: Picks = current;
        if (r?.kind === "option") {
          const has = current.options.includes(r.index);
          const options = has
            ? current.options.filter((i) => i !== r.index)
            : [...current.options, r.index].sort((a, b) => a - b);
          next = { options, custom: current.custom };
        } else if (r?.kind === "chip") {
          next = { options: current.options, custom: current.custom.filter((_, i) => i !== r.index) };
        }
        // A multi-select is answered while something is chosen (as many as it takes); emptying it un-answers it.
        return answer(context, p.q, next, selectionAnswers(qs[p.q], next), {
          cursors: replaceAt(context.cursors, p.q, clamp(context.cursors[p.q], 0, lastRow(p.q, next))),
        });
      }),
      confirmSelection: assign(({ context }, p: QParam) => answer(context, p.q, context.picks[p.q], true)),
      saveDraft: assign(({ context, event }, p: QParam) => {
        assertEvent(event, "TYPE");
        return { drafts: replaceAt(context.drafts, p.q, event.text) };
      }),
      /** A typed-answer question is answered while its text is non-empty and passes the checks. */
      typeAnswer: assign(({ context, event }, p: QParam) => {
        assertEvent(event, "TYPE");
        const text = event.text.trim();
        const ok = text !== "" && textProblems(qs[p.q].text!, text).length === 0;
        return answer(context, p.q, ok ? { options: [], custom: [text] } : NO_PICKS, ok, {
          drafts: replaceAt(context.drafts, p.q, event.text),
        });
      }),
      writeNote: assign(({ context, event }, p: QParam) => {
        assertEvent(event, ["TYPE", "SUBMIT_TEXT"]);
        const option = context.cursors[p.q];
        return { notes: replaceAt(context.notes, p.q, { ...context.notes[p.q], [option]: event.text }) };
      }),
      writeAdditional: assign(({ event }) => {
        assertEvent(event, ["TYPE", "SUBMIT_TEXT"]);
        return { additionalText: event.text };
      }),
      /** A typed answer; an empty one (an optional question left blank) is no answer. */
      answerText: assign(({ context, event }, p: QParam) => {
        assertEvent(event, "SUBMIT_TEXT");
        const text = event.text.trim();
        const picks = text === "" ? NO_PICKS : { options: [], custom: [text] };
        return answer(context, p.q, picks, text !== "", { drafts: replaceAt(context.drafts, p.q, text) });
      }),
      addTypedChoice: assign(({ context, event }, p: QParam) => {
        assertEvent(event, "SUBMIT_TEXT");
        const text = event.text.trim();
        const current = context.picks[p.q];
        const custom = current.custom.includes(text) ? current.custom : [...current.custom, text];
        // Keep the highlight on the new entry (it took the place of the "Type something." row).
        const cursor = qs[p.q].options.length + custom.indexOf(text);
        return answer(context, p.q, { options: current.options, custom }, true, {
          drafts: replaceAt(context.drafts, p.q, ""),
          cursors: replaceAt(context.cursors, p.q, cursor),
        });
      }),
      /** After an answer, move on (tabbed forms whose question auto-advances). */
      advance: raise({ type: "ADVANCE" } as const),
      /** A tab move passed over question `q`, hidden by its conditions. */
      markPassed: assign(({ context }, p: QParam) => ({ passed: replaceAt(context.passed, p.q, true) })),
      markReturn: assign({ returnToReview: true }),
      clearReturn: assign({ returnToReview: false }),
      /** Leaving a typed choice's editor by Tab keeps what it holds, as the answer or one more choice. */
      keepDraft: assign(({ context }, p: QParam) => {
        const text = context.drafts[p.q].trim();
        const current = context.picks[p.q];
        if (qs[p.q].kind === "single") return answer(context, p.q, { options: [], custom: [text] }, true);
        const custom = current.custom.includes(text) ? current.custom : [...current.custom, text];
        return answer(context, p.q, { options: current.options, custom }, true, {
          drafts: replaceAt(context.drafts, p.q, ""),
        });
      }),
      toggleAll: assign(({ context }, p: QParam) => {
        const next = allOrNone(p.q, context.picks[p.q]);
        return answer(context, p.q, next, selectionAnswers(qs[p.q], next));
      }),
      invert: assign(({ context }, p: QParam) => {
        const next = inverted(p.q, context.picks[p.q]);
        return answer(context, p.q, next, selectionAnswers(qs[p.q], next));
      }),
      /** A number key on a row: answer with it (single-select) or tick it (multi-select). */
      raiseConfirm: raise({ type: "CONFIRM" } as const),
      raiseToggle: raise({ type: "TOGGLE" } as const),
      goForward: assign({ direction: "forward" as Direction, returnToReview: false }),
      goBackward: assign({ direction: "backward" as Direction, returnToReview: false }),
      markWaited: assign({ waited: true }),
      markSubmitted: assign({ outcome: "submitted" as const }),
      markCancelled: assign({ outcome: "cancelled" as const }),
      markDeclined: assign({ outcome: "declined" as const }),
    },
  });
}

export function createFormMachine(spec: FormSpec) {
  const s = formSetup(spec);
  const qs = spec.questions;
  const tabbed = isTabbed(spec);

  // Tabs move one step; a hidden question passes the move on in the same
  // direction (its eventless `always` transitions), so each question has a
  // fixed pair of neighbours and every guarded skip is one edge of the chart.
  const stateOf = (j: number) => (j < 0 || j >= qs.length ? "#form.review" : `#form.${questionStateKey(j)}`);
  const forward = (k: number) => ({ target: stateOf(k + 1), actions: "goForward" as const });
  const backward = (k: number) => ({ target: stateOf(k - 1), actions: "goBackward" as const });
  const cancel = { target: "#form.cancelled", actions: "markCancelled" as const };
  /** Esc once something was entered asks first (a second Esc or Enter discards); before that it cancels. */
  const askFirst = [{ guard: "hasInput" as const, target: "discarding" }, cancel];
  // A question shown by a condition is only ever shown once an earlier one is answered (a
  // condition on an unanswered question is false), so there Esc always asks.
  const escFrom = (k: number) => (qs[k].visibility.kind === "when" ? { target: "discarding" } : askFirst);
  const discarding = (back: string) =>
    s.createStateConfig({ tags: "discarding", on: { CANCEL: cancel, CONFIRM: cancel, RESUME: { target: back } } });
  /** A lone single-choice question without a typed answer or notes holds nothing before it ends: Esc just cancels. */
  const holdsInput = (k: number) => tabbed || qs[k].kind !== "single" || qs[k].allowOther || qs[k].notes;
  /** A review screen with nothing before it to answer (a bare confirmation) holds no input either. */
  const reviewHoldsInput = qs.length > 0 || spec.additionalNotes === true;
  /** Ticking all options is offered where all may be chosen. */
  const allMayBeChosen = (k: number) => (qs[k].count?.max ?? Number.POSITIVE_INFINITY) >= qs[k].options.length;
  const tabs = (k: number) => (tabbed ? { NEXT_TAB: forward(k), PREV_TAB: backward(k) } : {});
  /** After an answer: back to the review screen when the person came from there, else on to the next question. */
  const advance = (k: number) => {
    if (!tabbed || !qs[k].autoAdvance) return {};
    // From the last question, moving on is the review screen anyway.
    if (k === qs.length - 1) return { ADVANCE: forward(k) };
    return { ADVANCE: [{ guard: "returningToReview" as const, target: "#form.review" }, forward(k)] };
  };
  const skipHidden = (k: number) =>
    qs[k].visibility.kind === "always" || !tabbed
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
      always: skipHidden(k),
      on: { ...tabs(k), ...advance(k) },
      states: {
        typing: {
          tags: "typing",
          on: {
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
            ...(allMayBeChosen(k) ? { TOGGLE_ALL: { actions: { type: "toggleAll" as const, params: p } } } : {}),
            INVERT: {
              guard: { type: "invertedFits" as const, params: p },
              actions: { type: "invert" as const, params: p },
            },
          };
    const noting = s.createStateConfig({
      tags: "noting",
      // The note is whatever is in its editor: Enter and Esc both close it, nothing typed is lost.
      on: {
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
      always: skipHidden(k),
      on: { ...tabs(k), ...advance(k) },
      states: {
        choosing: {
          tags: "choosing",
          on: {
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
    on: { NEXT_TAB: forward(-1), PREV_TAB: backward(qs.length) },
    states: {
      reviewing: {
        tags: "reviewing",
        entry: "clearReturn",
        on: {
          CONFIRM: { guard: "canSubmit", target: "#form.submitted", actions: "markSubmitted" },
          // A number key goes back to that question; its next answer comes back here.
          SELECT: qs.map((_, k) => ({
            guard: { type: "selectsQuestion" as const, params: { q: k } },
            target: stateOf(k),
            actions: "markReturn" as const,
          })),
          CANCEL: reviewHoldsInput ? askFirst : cancel,
          ...(spec.additionalNotes ? { NOTE: { target: "writing" } } : {}),
          ...(spec.declinable ? { DECLINE: { target: "#form.declined", actions: "markDeclined" as const } } : {}),
        },
      },
      ...(reviewHoldsInput ? { discarding: discarding("reviewing") } : {}),
      ...(spec.additionalNotes
        ? {
            writing: {
              tags: "writing",
              on: {
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
  const waiting = s.createStateConfig({
    tags: "waiting",
    entry: "markWaited",
    after: { cooldown: { target: first } },
    on: { CANCEL: cancel },
  });

  return s.createMachine({
    id: "form",
    context: ({ input }) => input?.restore ?? initialContext(spec),
    initial: spec.waitMs ? "waiting" : first,
    on: { ABORT: cancel },
    states: {
      ...(spec.waitMs ? { waiting } : {}),
      ...Object.fromEntries(
        qs.map((q, k) => [questionStateKey(k), q.kind === "text" ? textQuestion(k) : choiceQuestion(k)]),
      ),
      ...(tabbed ? { review } : {}),
      submitted: { type: "final" },
      cancelled: { type: "final" },
      ...(spec.declinable ? { declined: { type: "final" as const } } : {}),
    },
    output: ({ context }) => formResult(spec, context),
  });
}

export type FormMachine = ReturnType<typeof createFormMachine>;

const machines = new WeakMap<FormSpec, FormMachine>();

/**
 * The machine of a spec, made once per spec object: every form of one spec
 * (see `sharedSpec`) shares its definition, which depends on the spec alone
 * (a restored draft comes in through `input`); each form runs its own actor.
 */
export function formMachine(spec: FormSpec): FormMachine {
  const known = machines.get(spec);
  if (known) return known;
  const machine = createFormMachine(spec);
  machines.set(spec, machine);
  return machine;
}
