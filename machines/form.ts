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
import { isEmptyPicks, NO_PICKS, type Picks, rowAt, rowCount, type Row } from "./rows.js";
import { type FormSpec, isTabbed } from "./spec.js";

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
  | { type: "SUBMIT_TEXT"; text: string };

export type Outcome = "open" | "submitted" | "cancelled";

export interface FormContext {
  /** Highlighted row per question. */
  cursors: number[];
  /** Current selection per question (the working set for multi-select). */
  picks: Picks[];
  /** Whether each question has a confirmed answer. */
  answered: boolean[];
  /** Editor text per question, kept when the editor closes. */
  drafts: string[];
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

/** Build the result a facade maps from. Unconfirmed selections are not answers. */
export function formResult(spec: FormSpec, context: FormContext): FormResult {
  return {
    cancelled: context.outcome !== "submitted",
    answers: spec.questions.map((q, i) => {
      const answered = context.answered[i] === true;
      const picks = answered ? context.picks[i] : NO_PICKS;
      return { id: q.id, answered, options: [...picks.options], custom: [...picks.custom] };
    }),
  };
}

type QParam = { q: number };

export function createFormMachine(spec: FormSpec, options: FormMachineOptions = {}) {
  const qs = spec.questions;
  const tabbed = isTabbed(spec);
  const row = (context: FormContext, q: number): Row | undefined =>
    rowAt(qs[q], context.picks[q], context.cursors[q]);

  const machineSetup = setup({
    types: {} as {
      context: FormContext;
      events: FormEvent;
      output: FormResult;
    },
    guards: {
      onOtherRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "other",
      onOptionRow: ({ context }, p: QParam) => row(context, p.q)?.kind === "option",
      selectionAccepted: ({ context }, p: QParam) => !isEmptyPicks(context.picks[p.q]) || !qs[p.q].required,
      rowExists: ({ context, event }, p: QParam) =>
        event.type === "SELECT" && event.row >= 0 && event.row < rowCount(qs[p.q], context.picks[p.q]),
      hasText: ({ event }) => event.type === "SUBMIT_TEXT" && event.text.trim() !== "",
      canSubmit: ({ context }) => qs.every((q, i) => !q.required || context.answered[i]),
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
      pickHighlighted: assign(({ context }, p: QParam) => ({
        picks: replaceAt(context.picks, p.q, { options: [context.cursors[p.q]], custom: [] }),
        answered: replaceAt(context.answered, p.q, true),
      })),
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
        return {
          picks: replaceAt(context.picks, p.q, next),
          // Emptying a confirmed multi-select answer un-answers it.
          answered: replaceAt(context.answered, p.q, context.answered[p.q] && !isEmptyPicks(next)),
          cursors: replaceAt(context.cursors, p.q, clamp(context.cursors[p.q], 0, last)),
        };
      }),
      confirmSelection: assign(({ context }, p: QParam) => ({
        answered: replaceAt(context.answered, p.q, true),
      })),
      saveDraft: assign(({ context, event }, p: QParam) =>
        event.type === "TYPE" ? { drafts: replaceAt(context.drafts, p.q, event.text) } : {},
      ),
      answerText: assign(({ context, event }, p: QParam) => {
        if (event.type !== "SUBMIT_TEXT") return {};
        const text = event.text.trim();
        return {
          picks: replaceAt(context.picks, p.q, { options: [], custom: [text] }),
          answered: replaceAt(context.answered, p.q, true),
          drafts: replaceAt(context.drafts, p.q, text),
        };
      }),
      addTypedChoice: assign(({ context, event }, p: QParam) => {
        if (event.type !== "SUBMIT_TEXT") return {};
        const text = event.text.trim();
        const current = context.picks[p.q];
        const custom = current.custom.includes(text) ? current.custom : [...current.custom, text];
        const next = { options: current.options, custom };
        // Keep the highlight on the new entry (it took the place of the "Type something." row).
        const cursor = qs[p.q].options.length + custom.indexOf(text);
        return {
          picks: replaceAt(context.picks, p.q, next),
          drafts: replaceAt(context.drafts, p.q, ""),
          cursors: replaceAt(context.cursors, p.q, cursor),
        };
      }),
      markSubmitted: assign({ outcome: "submitted" as Outcome }),
      markCancelled: assign({ outcome: "cancelled" as Outcome }),
    },
  });

  /** Where an answer to question k leads: submit a lone question, else the next tab. */
  const afterAnswer = (k: number, from: "choosing" | "typing") => {
    if (!tabbed) return { target: "#form.submitted", actions: ["markSubmitted" as const] };
    if (!qs[k].autoAdvance) return { target: from === "typing" ? "choosing" : undefined, actions: [] };
    const next = k + 1 < qs.length ? `#form.${questionStateKey(k + 1)}` : "#form.review";
    return { target: next, actions: [] };
  };
  const tabTarget = (k: number) => (k < 0 || k >= qs.length ? "#form.review" : `#form.${questionStateKey(k)}`);

  const questionState = (k: number) => {
    const q = qs[k];
    const p = { q: k };
    const answer = afterAnswer(k, "choosing");
    const answerFromTyping = afterAnswer(k, "typing");
    const choosingOn: Record<string, unknown> = {
      MOVE: { actions: { type: "move", params: p } },
      MOVE_TO: { actions: { type: "moveTo", params: p } },
      SELECT: {
        guard: { type: "rowExists", params: p },
        actions: [
          { type: "moveTo", params: p },
          raise({ type: q.kind === "multi" ? "TOGGLE" : "CONFIRM" }),
        ],
      },
      CANCEL: { target: "#form.cancelled", actions: "markCancelled" },
      ...(tabbed
        ? { NEXT_TAB: { target: tabTarget(k + 1) }, PREV_TAB: { target: tabTarget(k - 1) } }
        : {}),
    };
    if (q.kind === "single") {
      choosingOn.CONFIRM = [
        { guard: { type: "onOtherRow", params: p }, target: "typing" },
        {
          guard: { type: "onOptionRow", params: p },
          target: answer.target,
          actions: [{ type: "pickHighlighted", params: p }, ...answer.actions],
        },
      ];
      if (q.allowOther) choosingOn.TOGGLE = { guard: { type: "onOtherRow", params: p }, target: "typing" };
    } else {
      choosingOn.TOGGLE = [
        { guard: { type: "onOtherRow", params: p }, target: "typing" },
        { actions: { type: "toggleHighlighted", params: p } },
      ];
      choosingOn.CONFIRM = [
        { guard: { type: "onOtherRow", params: p }, target: "typing" },
        {
          guard: { type: "selectionAccepted", params: p },
          target: answer.target,
          actions: [{ type: "confirmSelection", params: p }, ...answer.actions],
        },
      ];
    }
    if (!q.allowOther) {
      // Without a free-text row the editor can never open.
      for (const key of ["CONFIRM", "TOGGLE"]) {
        const t = choosingOn[key];
        if (Array.isArray(t)) choosingOn[key] = t.filter((c) => c.target !== "typing");
      }
    }
    const states: Record<string, unknown> = { choosing: { on: choosingOn } };
    if (q.allowOther) {
      states.typing = {
        on: {
          TYPE: { actions: { type: "saveDraft", params: p } },
          SUBMIT_TEXT:
            q.kind === "single"
              ? {
                  guard: "hasText",
                  target: answerFromTyping.target,
                  actions: [{ type: "answerText", params: p }, ...answerFromTyping.actions],
                }
              : { guard: "hasText", target: "choosing", actions: { type: "addTypedChoice", params: p } },
          CANCEL: { target: "choosing" },
        },
      };
    }
    return { initial: "choosing", meta: { question: q.id }, states };
  };

  const states: Record<string, unknown> = {};
  qs.forEach((_, k) => {
    states[questionStateKey(k)] = questionState(k);
  });
  if (tabbed) {
    states.review = {
      on: {
        CONFIRM: { guard: "canSubmit", target: "submitted", actions: "markSubmitted" },
        NEXT_TAB: { target: tabTarget(0) },
        PREV_TAB: { target: tabTarget(qs.length - 1) },
        CANCEL: { target: "cancelled", actions: "markCancelled" },
      },
    };
  }
  states.submitted = { type: "final" };
  states.cancelled = { type: "final" };

  return machineSetup.createMachine({
    id: "form",
    context: options.restore ?? initialContext(spec),
    initial: questionStateKey(0),
    on: { ABORT: { target: ".cancelled", actions: "markCancelled" } },
    // The states are generated from the spec, so their shape is only known at run time.
    states: states as never,
    output: ({ context }) => formResult(spec, context),
  });
}

export type FormMachine = ReturnType<typeof createFormMachine>;

export type FormPosition =
  | { kind: "question"; q: number; mode: "choosing" | "typing" }
  | { kind: "review" }
  | { kind: "done"; outcome: "submitted" | "cancelled" };

/** Where a snapshot stands, read from its state value. */
export function formPosition(value: unknown): FormPosition {
  if (value === "review") return { kind: "review" };
  if (value === "submitted" || value === "cancelled") return { kind: "done", outcome: value };
  if (value && typeof value === "object") {
    const [key, sub] = Object.entries(value as Record<string, unknown>)[0] ?? [];
    const match = /^q(\d+)$/.exec(key ?? "");
    if (match) return { kind: "question", q: Number(match[1]) - 1, mode: sub === "typing" ? "typing" : "choosing" };
  }
  throw new Error(`Unknown form state: ${JSON.stringify(value)}`);
}
