/**
 * States as the review pages name them: in the person's words (`Split ·
 * options`), and for the diff by question id (`split/choosing`), so adding a
 * question in the middle renames no state after it.
 */
import type { FormSpec } from "../../machines/spec.js";
import { questionName } from "./condition-words.js";

export const SUBSTATES: Record<string, string> = {
  choosing: "options",
  typing: "typing an answer",
  noting: "writing a note",
  discarding: "discard what was entered?",
  reviewing: "Review your answers",
  writing: "additional notes",
};
const TOP: Record<string, string> = {
  waiting: "waiting (countdown)",
  submitted: "Submitted",
  cancelled: "Cancelled",
  declined: "Declined",
};

/** A state as the person knows it: `Size`, `Split · typing an answer`, `Review your answers`. */
export function stateWords(spec: FormSpec, path: string): string {
  const q = /^q(\d+)(?:\.(\w+))?$/.exec(path);
  if (q) {
    const name = questionName(spec, Number(q[1]) - 1);
    return q[2] ? `${name} · ${SUBSTATES[q[2]] ?? q[2]}` : name;
  }
  const r = /^review(?:\.(\w+))?$/.exec(path);
  // Without questions the review is the whole form: a confirmation.
  if (r && spec.questions.length === 0)
    return r[1] === "reviewing" || !r[1] ? "Confirmation" : (SUBSTATES[r[1]] ?? r[1]);
  if (r) return !r[1] || r[1] === "reviewing" ? "Review your answers" : `Review · ${SUBSTATES[r[1]] ?? r[1]}`;
  return TOP[path] ?? path;
}

/** A state path by question id: `q2.choosing` → `split/choosing` (a slash: a question with the id `review` is not the review). */
export function stableName(spec: FormSpec, path: string): string {
  const q = /^q(\d+)(?:\.(.*))?$/.exec(path);
  if (!q) return path;
  const id = spec.questions[Number(q[1]) - 1]?.id ?? `q${q[1]}`;
  return q[2] ? `${id}/${q[2]}` : id;
}

/** A state for the reader of a diff: `Split · options (q2.choosing)`. */
export function stateLabel(spec: FormSpec, path: string): string {
  const words = stateWords(spec, path);
  return words === path || words.startsWith(`${path} (`) ? words : `${words} (${path})`;
}
