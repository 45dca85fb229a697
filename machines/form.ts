/**
 * One statechart for every form.
 *
 * `createFormMachine(spec)` builds an XState v5 machine with one state per
 * question (`q1`, `q2` …, each with `choosing` and `typing` sub-states), a
 * `review` state (the Submit tab of a tabbed form) and the final states
 * `submitted` and `cancelled`. Keys are not events: renderers translate key
 * bytes into the semantic events below, so tests, the terminal view and the
 * dialog fallback all drive the same machine.
 *
 * UX contract encoded here:
 * - single-select: Enter (or a number key) answers with the highlighted option;
 * - multi-select: Space toggles, Enter confirms; at least one choice unless optional;
 * - "Type something." opens an editor pre-filled with the earlier draft;
 * - Esc backs out one level: editor → list, list → cancel the form;
 * - a tabbed form's Submit tab refuses to submit while a required question is open;
 * - a cancelled form still reports the answers given so far.
 */
import { assign, raise, setup } from "xstate";
import { allHold } from "./conditions.js";
import { isEmptyPicks, NO_PICKS, type Picks, type Row, rowAt, rowCount } from "./rows.js";
import { type FormSpec, isTabbed } from "./spec.js";
import { textProblems } from "./text-rules.js";

export type FormEvent =
  | { type: "MOVE"; delta: number }
  | { type: "MOVE_TO"; to: "first" | "last" }
  | { type: "SELECT"; row: number }
  | { type: "TOGGLE" }
  | { type: "CONFIRM" }
  | { type: "NEXT_TAB" }
  | { type: "PREV_TAB" }
  | { type: "CANCEL" }
  | { type: "ABORT" }
  | { type: "TYPE"; text: string }
  | { type: "SUBMIT_TEXT"; text: string }
  | { type: "NOTE" };

/** Raised by the machine itself after an answer: move on to the next visible question. */
type InternalEvent = { type: "ADVANCE" };

export type Outcome = "open" | "submitted" | "cancelled";
export type Direction = "forward" | "backward";

export interface FormContext {
  /** Highlighted row per question. */
  cursors: number[];
  /** Current selection per question (the working set for multi-select). */
  picks: Picks[];
  /** Whether each question has a confirmed answer. */
  answered: boolean[];
  /** Editor text per question, kept when the editor closes. */
  drafts: string[];
  /** Whether the form waited (a throttle countdown) before it was shown. */
  waited: boolean;
  /** Which way the last tab move went: a hidden question passes it on. */
  direction: Direction;
  /** The person's notes per question, by option index. */
  notes: Array<Record<number, string>>;
  /** Additional notes written on the review screen. */
  additionalText: string;
  outcome: Outcome;
}

export interface QuestionOutcome {
  id: string;
  answered: boolean;
  /** Zero-based indexes of chosen predefined options, in option order. */
  options: number[];
  /** Typed answers. */
  custom: string[];
}

export interface FormResult {
  cancelled: boolean;
  answers: QuestionOutcome[];
  /** Ids of the questions hidden by their conditions when the form closed. */
  skipped: string[];
  waited: boolean;
  /** Non-empty notes per question, by option index. */
  notes: Array<Record<number, string>>;
  additionalText: string;
}

export interface FormMachineOptions {
  /** Context to start from instead of a blank form (a restored draft). */
  restore?: FormContext;
}

export function initialContext(spec: FormSpec): FormContext {
  const n = spec.questions.length;
  return {
    cursors: new Array(n).fill(0),
    picks: new Array(n).fill(NO_PICKS),
    answered: new Array(n).fill(false),
    drafts: new Array(n).fill(""),
    waited: false,
    direction: "forward",
    notes: Array.from({ length: n }, () => ({})),
    additionalText: "",
    outcome: "open",
  };
}

/** The state key of question `k` (zero-based): `q1`, `q2` … */
export function questionStateKey(k: number): string {
  return `q${k + 1}`;
}

function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice();
  copy[index] = value;
  return copy;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}

/** The answer of the question with this id, as the values conditions compare, or undefined if unanswered. */
export function answerValues(spec: FormSpec, context: FormContext, id: string): string[] | undefined {
  const q = spec.questions.findIndex((question) => question.id === id);
  if (q < 0 || !context.answered[q]) return undefined;
  const picks = context.picks[q];
  return [...picks.options.map((i) => spec.questions[q].options[i].value), ...picks.custom];
}

/** Whether question `q` is shown, judged on the answers in `context`. */
export function isVisible(spec: FormSpec, context: FormContext, q: number): boolean {
  const v = spec.questions[q].visibility;
  if (v.kind === "always") return true;
  if (v.kind === "never") return false;
  return allHold(v.conditions, (field) => answerValues(spec, context, field));
}

/** Drop the answers of questions an answer change has hidden (conditions only look back, so one pass). */
export function pruneHidden(spec: FormSpec, context: FormContext): FormContext {
  let next = context;
  spec.questions.forEach((q, j) => {
    if (q.visibility.kind === "always" || !next.answered[j] || isVisible(spec, next, j)) return;
    next = { ...next, answered: replaceAt(next.answered, j, false), picks: replaceAt(next.picks, j, NO_PICKS) };
  });
  return next;
}

export function canSubmit(spec: FormSpec, context: FormContext): boolean {
  return spec.questions.every((q, i) => !q.required || context.answered[i] || !isVisible(spec, context, i));
}

/** Build the result a facade maps from. Unconfirmed selections are not answers. */
export function formResult(spec: FormSpec, context: FormContext): FormResult {
  return {
    cancelled: context.outcome !== "submitted",
    answers: spec.questions.map((q, i) => {
      const answered = context.answered[i] === true;
      const picks = answered ? context.picks[i] : NO_PICKS;
      return { id: q.id, answered, options: [...picks.options], custom: [...picks.custom] };
    }),
    skipped: spec.questions.filter((_, i) => !isVisible(spec, context, i)).map((q) => q.id),
    waited: context.waited,
    notes: context.notes.map((byOption) =>
      Object.fromEntries(
        Object.entries(byOption)
          .filter(([, note]) => note.trim() !== "")
          .map(([i, note]) => [i, note.trim()]),
      ),
    ),
    additionalText: context.additionalText.trim(),
  };
}

type QParam = { q: number };

export function createFormMachine(spec: FormSpec, options: FormMachineOptions = {}) {
  const qs = spec.questions;
  const tabbed = isTabbed(spec);
  const row = (context: FormContext, q: number): Row | undefined => rowAt(qs[q], context.picks[q], context.cursors[q]);
  /** Apply an answer change, then drop answers it hid. */
  const answer = (context: FormContext, q: number, picks: Picks, answered: boolean, extra: Partial<FormContext> = {}) =>
    pruneHidden(spec, {
      ...context,
      ...extra,
      picks: replaceAt(context.picks, q, picks),
      answered: replaceAt(context.answered, q, answered),
    });

  const machineSetup = setup({
    types: {} as {
      context: FormContext;
      events: FormEvent | InternalEvent;
      output: FormResult;
    },
    delays: { cooldown: spec.waitMs ?? 0 },
    guards: {
      onOtherRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "other",
      onOptionRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "option",
      selectionAccepted: ({ context }, p: QParam) => !isEmptyPicks(context.picks[p.q]) || !qs[p.q].required,
      rowExists: ({ context, event }, p: QParam) =>
        event.type === "SELECT" && event.row >= 0 && event.row < rowCount(qs[p.q], context.picks[p.q]),
      hasText: ({ event }) => event.type === "SUBMIT_TEXT" && event.text.trim() !== "",
      selectsQuestion: ({ context, event }, p: QParam) =>
        event.type === "SELECT" && event.row === p.q && isVisible(spec, context, p.q),
      textAccepted: ({ event }, p: QParam) =>
        event.type === "SUBMIT_TEXT" && textProblems(qs[p.q].text!, event.text).length === 0,
      hiddenGoing: ({ context }, p: { q: number; direction: Direction }) =>
        context.direction === p.direction && !isVisible(spec, context, p.q),
      canSubmit: ({ context }) => canSubmit(spec, context),
    },
    actions: {
      move: assign(({ context, event }, p: QParam) => {
        if (event.type !== "MOVE") return {};
        const last = rowCount(qs[p.q], context.picks[p.q]) - 1;
        return { cursors: replaceAt(context.cursors, p.q, clamp(context.cursors[p.q] + event.delta, 0, last)) };
      }),
      moveTo: assign(({ context, event }, p: QParam) => {
        const last = rowCount(qs[p.q], context.picks[p.q]) - 1;
        const target = event.type === "SELECT" ? event.row : event.type === "MOVE_TO" && event.to === "last" ? last : 0;
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
        const last = rowCount(qs[p.q], next) - 1;
        // A multi-select is answered as soon as something is chosen; emptying it un-answers it.
        return answer(context, p.q, next, !isEmptyPicks(next), {
          cursors: replaceAt(context.cursors, p.q, clamp(context.cursors[p.q], 0, last)),
        });
      }),
      confirmSelection: assign(({ context }, p: QParam) => answer(context, p.q, context.picks[p.q], true)),
      saveDraft: assign(({ context, event }, p: QParam) =>
        event.type === "TYPE" ? { drafts: replaceAt(context.drafts, p.q, event.text) } : {},
      ),
      /** A typed-answer question is answered while its text is non-empty and passes the checks. */
      typeAnswer: assign(({ context, event }, p: QParam) => {
        if (event.type !== "TYPE") return {};
        const text = event.text.trim();
        const ok = text !== "" && textProblems(qs[p.q].text!, text).length === 0;
        return answer(context, p.q, ok ? { options: [], custom: [text] } : NO_PICKS, ok, {
          drafts: replaceAt(context.drafts, p.q, event.text),
        });
      }),
      writeNote: assign(({ context, event }, p: QParam) => {
        if (event.type !== "TYPE" && event.type !== "SUBMIT_TEXT") return {};
        const option = context.cursors[p.q];
        return { notes: replaceAt(context.notes, p.q, { ...context.notes[p.q], [option]: event.text }) };
      }),
      writeAdditional: assign(({ event }) =>
        event.type === "TYPE" || event.type === "SUBMIT_TEXT" ? { additionalText: event.text } : {},
      ),
      answerText: assign(({ context, event }, p: QParam) => {
        if (event.type !== "SUBMIT_TEXT") return {};
        const text = event.text.trim();
        return answer(context, p.q, { options: [], custom: [text] }, true, {
          drafts: replaceAt(context.drafts, p.q, text),
        });
      }),
      addTypedChoice: assign(({ context, event }, p: QParam) => {
        if (event.type !== "SUBMIT_TEXT") return {};
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
      markWaited: assign({ waited: true }),
      markSubmitted: assign({ outcome: "submitted" as Outcome }),
      markCancelled: assign({ outcome: "cancelled" as Outcome }),
    },
  });

  // Tabs move one step; a hidden question passes the move on in the same
  // direction (its eventless `always` transitions), so each question has a
  // fixed pair of neighbours and every guarded skip is one edge of the chart.
  const stateOf = (j: number) => (j < 0 || j >= qs.length ? "#form.review" : `#form.${questionStateKey(j)}`);
  const forward = (k: number) => ({ target: stateOf(k + 1), actions: assign({ direction: "forward" as Direction }) });
  const backward = (k: number) => ({ target: stateOf(k - 1), actions: assign({ direction: "backward" as Direction }) });
  const skipHidden = (k: number) =>
    qs[k].visibility.kind === "always" || !tabbed
      ? []
      : [
          {
            guard: { type: "hiddenGoing", params: { q: k, direction: "forward" as Direction } },
            target: stateOf(k + 1),
          },
          {
            guard: { type: "hiddenGoing", params: { q: k, direction: "backward" as Direction } },
            target: stateOf(k - 1),
          },
        ];

  /** Actions that follow an answer: submit a lone question, or move on when the question auto-advances. */
  const onAnswered = (k: number) => {
    if (!tabbed) return { target: "#form.submitted", actions: ["markSubmitted" as const] };
    return { target: undefined, actions: qs[k].autoAdvance ? [raise({ type: "ADVANCE" } as const)] : [] };
  };

  const questionState = (k: number) => {
    const q = qs[k];
    const p = { q: k };
    const next = onAnswered(k);
    const questionOn: Record<string, unknown> = tabbed ? { NEXT_TAB: forward(k), PREV_TAB: backward(k) } : {};
    if (tabbed && q.autoAdvance) questionOn.ADVANCE = forward(k);
    const always = skipHidden(k);

    if (q.kind === "text") {
      return {
        initial: "typing",
        meta: { question: q.id },
        always,
        on: questionOn,
        states: {
          typing: {
            on: {
              TYPE: { actions: { type: "typeAnswer", params: p } },
              SUBMIT_TEXT: {
                guard: { type: "textAccepted", params: p },
                target: next.target,
                actions: [{ type: "answerText", params: p }, ...next.actions],
              },
              CANCEL: { target: "#form.cancelled", actions: "markCancelled" },
            },
          },
        },
      };
    }

    const toEditor = q.allowOther ? [{ guard: { type: "onOtherRow", params: p }, target: "typing" }] : [];
    const choosingOn: Record<string, unknown> = {
      MOVE: { actions: { type: "move", params: p } },
      MOVE_TO: { actions: { type: "moveTo", params: p } },
      SELECT: {
        guard: { type: "rowExists", params: p },
        actions: [{ type: "moveTo", params: p }, raise({ type: q.kind === "multi" ? "TOGGLE" : "CONFIRM" } as const)],
      },
      CANCEL: { target: "#form.cancelled", actions: "markCancelled" },
    };
    if (q.kind === "single") {
      choosingOn.CONFIRM = [
        ...toEditor,
        {
          guard: { type: "onOptionRow", params: p },
          target: next.target,
          actions: [{ type: "pickHighlighted", params: p }, ...next.actions],
        },
      ];
      if (q.allowOther) choosingOn.TOGGLE = toEditor;
    } else {
      choosingOn.TOGGLE = [...toEditor, { actions: { type: "toggleHighlighted", params: p } }];
      choosingOn.CONFIRM = [
        ...toEditor,
        {
          guard: { type: "selectionAccepted", params: p },
          target: next.target,
          actions: [{ type: "confirmSelection", params: p }, ...next.actions],
        },
      ];
    }
    const states: Record<string, unknown> = { choosing: { on: choosingOn } };
    if (q.notes) {
      choosingOn.NOTE = { guard: { type: "onOptionRow", params: p }, target: "noting" };
      // The note is whatever is in its editor: Enter and Esc both close it, nothing typed is lost.
      states.noting = {
        on: {
          TYPE: { actions: { type: "writeNote", params: p } },
          SUBMIT_TEXT: { target: "choosing", actions: { type: "writeNote", params: p } },
          CANCEL: { target: "choosing" },
        },
      };
    }
    if (q.allowOther) {
      states.typing = {
        on: {
          TYPE: { actions: { type: "saveDraft", params: p } },
          SUBMIT_TEXT:
            q.kind === "single"
              ? {
                  guard: "hasText",
                  // A lone question submits; in a tabbed form the editor closes, then ADVANCE moves on.
                  target: next.target ?? "choosing",
                  actions: [{ type: "answerText", params: p }, ...next.actions],
                }
              : { guard: "hasText", target: "choosing", actions: { type: "addTypedChoice", params: p } },
          CANCEL: { target: "choosing" },
        },
      };
    }
    return { initial: "choosing", meta: { question: q.id }, always, on: questionOn, states };
  };

  const states: Record<string, unknown> = {};
  if (spec.waitMs) {
    states.waiting = {
      entry: "markWaited",
      after: { cooldown: { target: questionStateKey(0) } },
      on: { CANCEL: { target: "cancelled", actions: "markCancelled" } },
    };
  }
  qs.forEach((_, k) => {
    states[questionStateKey(k)] = questionState(k);
  });
  if (tabbed) {
    const reviewing = {
      CONFIRM: { guard: "canSubmit", target: "#form.submitted", actions: "markSubmitted" },
      // A number key goes back to that question.
      SELECT: qs.map((_, k) => ({ guard: { type: "selectsQuestion", params: { q: k } }, target: stateOf(k) })),
      CANCEL: { target: "#form.cancelled", actions: "markCancelled" },
    };
    const tabs = { NEXT_TAB: forward(-1), PREV_TAB: backward(qs.length) };
    states.review = spec.additionalNotes
      ? {
          initial: "reviewing",
          on: tabs,
          states: {
            reviewing: { on: { ...reviewing, NOTE: { target: "writing" } } },
            writing: {
              on: {
                TYPE: { actions: "writeAdditional" },
                SUBMIT_TEXT: { target: "reviewing", actions: "writeAdditional" },
                CANCEL: { target: "reviewing" },
              },
            },
          },
        }
      : { on: { ...reviewing, ...tabs } };
  }
  states.submitted = { type: "final" };
  states.cancelled = { type: "final" };

  return machineSetup.createMachine({
    id: "form",
    context: options.restore ?? initialContext(spec),
    initial: spec.waitMs ? "waiting" : questionStateKey(0),
    on: { ABORT: { target: ".cancelled", actions: "markCancelled" } },
    // The states are generated from the spec, so their shape is only known at run time.
    states: states as never,
    output: ({ context }) => formResult(spec, context),
  });
}

export type FormMachine = ReturnType<typeof createFormMachine>;

export type FormPosition =
  | { kind: "waiting" }
  | { kind: "question"; q: number; mode: "choosing" | "typing" | "noting" }
  | { kind: "review"; mode: "reviewing" | "writing" }
  | { kind: "done"; outcome: "submitted" | "cancelled" };

/** Where a snapshot stands, read from its state value. */
export function formPosition(value: unknown): FormPosition {
  if (value === "review") return { kind: "review", mode: "reviewing" };
  if (value === "waiting") return { kind: "waiting" };
  if (value === "submitted" || value === "cancelled") return { kind: "done", outcome: value };
  if (value && typeof value === "object") {
    const [key, sub] = Object.entries(value as Record<string, unknown>)[0] ?? [];
    if (key === "review") return { kind: "review", mode: sub === "writing" ? "writing" : "reviewing" };
    const match = /^q(\d+)$/.exec(key ?? "");
    if (match)
      return {
        kind: "question",
        q: Number(match[1]) - 1,
        mode: sub === "typing" || sub === "noting" ? sub : "choosing",
      };
  }
  throw new Error(`Unknown form state: ${JSON.stringify(value)}`);
}

/** The text an editor position edits: a typed answer's draft, an option's note, or the additional notes. */
export function editorText(position: FormPosition, context: FormContext): string {
  if (position.kind === "review") return context.additionalText;
  if (position.kind !== "question") return "";
  if (position.mode === "noting") return context.notes[position.q][context.cursors[position.q]] ?? "";
  return context.drafts[position.q];
}
