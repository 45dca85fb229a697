/**
 * Why the chart did not take an event, read where it was sent: the guard of
 * the last candidate transition for it in the states the form is in (each
 * earlier candidate failed too, or the chart would have taken it), and the
 * person's words for that guard. Names and texts written by the model are
 * left as written: a screen makes them safe to show, as it does every text.
 */
import type { FormContext, FormEvent } from "./context.js";
import { openQuestions } from "./context.js";
import type { FormSnapshot } from "./position.js";
import { formPosition } from "./position.js";
import type { FormSpec, QuestionSpec } from "./spec.js";
import { countPhrase, textProblems } from "./text-rules.js";

export interface Refusal {
  /** The guard that refused it; undefined where no state of the form takes the event at all. */
  guard?: string;
  /** What to tell the person; undefined where there is nothing to say. */
  why?: string;
}

type StateNode = FormSnapshot["machine"]["root"];

/** The state nodes a snapshot is in, innermost first, read off its value through the machine's public tree. */
function activeChain(snapshot: FormSnapshot): StateNode[] {
  const chain: StateNode[] = [];
  let node: StateNode | undefined = snapshot.machine.root;
  let value: unknown = snapshot.value;
  while (node) {
    chain.unshift(node);
    const key: string | undefined =
      typeof value === "string" ? value : value && typeof value === "object" ? Object.keys(value)[0] : undefined;
    node = key === undefined ? undefined : node.states[key];
    value =
      key !== undefined && value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  }
  return chain;
}

/** The guard of the last candidate for the event, in the innermost state that has any. */
function refusingGuard(snapshot: FormSnapshot, event: FormEvent): { found: boolean; guard?: string } {
  for (const node of activeChain(snapshot)) {
    const candidates = node.on[event.type];
    if (!candidates?.length) continue;
    const guard = candidates[candidates.length - 1].guard;
    return { found: true, guard: typeof guard === "string" ? guard : (guard as { type?: string })?.type };
  }
  return { found: false };
}

export function refusalOf(snapshot: FormSnapshot, event: FormEvent): Refusal {
  const { found, guard } = refusingGuard(snapshot, event);
  const spec = snapshot.context.spec;
  const position = formPosition(snapshot);
  const q = position.kind === "question" ? position.q : -1;
  const why = found
    ? guardWords(guard, spec, snapshot.context, q, event)
    : position.kind === "question"
      ? unhandledWords(spec.questions[q], position.mode, event)
      : undefined;
  return { ...(guard !== undefined ? { guard } : {}), ...(why !== undefined ? { why } : {}) };
}

function guardWords(
  guard: string | undefined,
  spec: FormSpec,
  context: FormContext,
  k: number,
  event: FormEvent,
): string | undefined {
  const q = spec.questions[k];
  switch (guard) {
    case "canSubmit": {
      const open = openQuestions(spec, context).map((j) => label(spec.questions[j].label));
      return `Not submitted yet: answer ${open.join(", ")} first.`;
    }
    case "entryExists":
      return event.type === "SELECT" ? `There is no question ${event.row + 1} on this form right now.` : undefined;
    case "rowExists":
      return event.type === "SELECT" ? `There is no row ${event.row + 1}.` : undefined;
    case "hasText":
      return "Type something first, or Esc to go back to the options.";
    case "textAccepted": {
      if (event.type !== "SUBMIT_TEXT" || !q.text) return undefined;
      const problems = textProblems(q.text, event.text);
      if (!problems.length) return undefined;
      // The field lists what fails under a typed answer (the ✗ lines): said once, there.
      return event.text === "" ? `Not saved: ${problems.join(" ")}` : "Not saved: fix what is marked ✗ above.";
    }
    case "selectionAccepted":
      return countRefusal(q, context, k);
    case "allFit":
      return `At most ${q.count?.max} may be chosen here${typedToo(context, k)}, so "a" cannot tick them all.`;
    case "invertedFits":
      return `Inverting would choose more than the ${q.count?.max} this question allows${typedToo(context, k)}.`;
    case "onOtherRow":
      return event.type === "TOGGLE" ? TOGGLE_IN_SINGLE : undefined;
    case "onOptionRow":
      return event.type === "NOTE" ? "A note goes on an option: move to one first." : undefined;
    default:
      return undefined;
  }
}

const TOGGLE_IN_SINGLE = "Space ticks options in a multi-select: press Enter or 1-9 to choose.";

/** An event no state of the form takes where it stands. */
function unhandledWords(q: QuestionSpec, mode: string, event: FormEvent): string | undefined {
  // Taken wherever there is another question: refused, the form asks this one only.
  if (event.type === "NEXT_TAB" || event.type === "PREV_TAB")
    return `Tab moves between questions, and this form asks only this one: ${mode === "choosing" ? "Enter answers it" : "Enter saves, Esc goes back"}.`;
  if (mode === "choosing" && event.type === "TOGGLE" && q.kind === "single") return TOGGLE_IN_SINGLE;
  return undefined;
}

/** Why Enter did not confirm a multi-select: what to tick or untick, counted from what is ticked now. */
function countRefusal(q: QuestionSpec, context: FormContext, k: number): string {
  const picks = context.picks[k];
  const ticked = picks.options.length + picks.custom.length;
  const phrase = countPhrase(q) || "what applies";
  const { min = 0, max } = q.count ?? {};
  const now = `${ticked} ${ticked === 1 ? "is" : "are"} ticked${typedToo(context, k)} and this question takes ${phrase}`;
  if (max !== undefined && ticked > max) return `${now}: untick ${ticked - max} (Space or 1-9), then Enter.`;
  if (ticked > 0 && ticked < min) return `${now}: tick ${min - ticked} more (Space or 1-9), then Enter.`;
  return `Choose ${phrase} (Space or 1-9), then Enter.`;
}

/** Said of a largest count where typed choices take part of it. */
function typedToo(context: FormContext, k: number): string {
  return context.picks[k].custom.length ? " (typed choices count too)" : "";
}

/** A question's name in a sentence: on one line, at most 200 characters. */
function label(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ");
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
