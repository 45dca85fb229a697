/**
 * Nothing the person typed is lost: a form that ends without submit (Esc, an
 * aborted call, a failure) is kept in the session as a draft entry; when the
 * same form is asked again it opens with the draft restored. A form that
 * changed gets back the answers of the questions whose id, kind and options
 * still match; the others open empty. A submit clears the draft. A draft is
 * data from a file: it is checked before it is used.
 */
import { createHash } from "node:crypto";
import type { FormContext, FormState } from "../../machines/context.js";
import { restoreContext } from "../../machines/entered.js";
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import { checkStoredDraft, type StoredContext, type StoredQuestion } from "../../schemas/draft.js";

export const DRAFT_ENTRY = "pi-formchart-draft";

export interface DraftData {
  key: string;
  /** Absent: a submit cleared the draft. */
  context?: FormState;
  questions?: StoredQuestion[];
}

function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 32);
}

/** An answer is offered back only where its kind and options match. */
function answerShape(q: QuestionSpec): string {
  return hash([q.kind, q.options.map((o) => [o.label, o.value])]);
}

export function draftQuestions(spec: FormSpec): StoredQuestion[] {
  return spec.questions.map((q) => ({ id: q.id, shape: answerShape(q) }));
}

/** Everything that decides what an answer may be: a draft of a form changed in any of it is not offered back whole. */
export function formKey(spec: FormSpec): string {
  let key = keys.get(spec);
  if (key === undefined) {
    key = keyOf(spec);
    keys.set(spec, key);
  }
  return key;
}

/** Each spec's key, worked out once: a form asked again shares its spec (`sharedSpec`), and specs are never changed. */
const keys = new WeakMap<FormSpec, string>();

function keyOf(spec: FormSpec): string {
  const shape = spec.questions.map((q) => [
    q.id,
    q.kind,
    q.prompt,
    q.options.map((o) => [o.label, o.value]),
    q.allowOther,
    q.required,
    q.notes,
    q.visibility,
    q.text ?? null,
    q.count ?? null,
  ]);
  return hash([shape, spec.additionalNotes === true]);
}

interface EntryLike {
  type: string;
  customType?: string;
  data?: unknown;
}

export interface FoundDraft {
  key: string;
  context: FormContext;
  /** Absent when it is the same form. */
  kept?: string[];
}

/** Undefined when no question matches: a draft of another form restores nothing. */
function matchQuestions(spec: FormSpec, stored: StoredContext, questions: readonly StoredQuestion[]) {
  if (questions.length !== stored.picks.length) return undefined;
  const from = spec.questions.map((q) => {
    const shape = answerShape(q);
    return questions.findIndex((s) => s.id === q.id && s.shape === shape);
  });
  if (from.every((j) => j < 0)) return undefined;
  const take = <T>(list: readonly T[] | undefined, empty: T): T[] =>
    from.map((j) => (j >= 0 && list && j < list.length ? list[j] : empty));
  const context: StoredContext = {
    cursors: take(stored.cursors, 0),
    picks: take(stored.picks, { options: [], custom: [] }),
    answered: take(stored.answered, false),
    drafts: take(stored.drafts, ""),
    typed: take(stored.typed, []),
    notes: take(stored.notes, {}),
    defaulted: take(stored.defaulted, false),
    additionalText: "",
  };
  return { context, matched: from.map((j) => j >= 0) };
}

function holdsInput(context: FormContext, k: number): boolean {
  return (
    context.answered[k] ||
    context.picks[k].options.length > 0 ||
    context.picks[k].custom.length > 0 ||
    context.drafts[k].trim() !== "" ||
    Object.values(context.notes[k]).some((t) => t.trim() !== "")
  );
}

/** A session entry is data from a file: one that is not a draft's shape is ignored. */
export function findDraft(entries: readonly EntryLike[], key: string, spec: FormSpec): FoundDraft | undefined {
  const cleared = new Set<string>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type !== "custom" || e.customType !== DRAFT_ENTRY) continue;
    const checked = checkStoredDraft(e.data);
    if (!checked.ok) continue;
    const draft = checked.value;
    if (!draft.context) {
      if (draft.key === key) return undefined;
      cleared.add(draft.key);
      continue;
    }
    if (cleared.has(draft.key)) continue;
    if (draft.key === key) {
      const context = restoreContext(spec, draft.context);
      return context ? { key, context } : undefined;
    }
    const matched = draft.questions ? matchQuestions(spec, draft.context, draft.questions) : undefined;
    if (!matched) continue;
    const context = restoreContext(spec, matched.context);
    const kept = spec.questions.filter((_, k) => context && matched.matched[k] && holdsInput(context, k));
    if (!context || kept.length === 0) continue;
    return { key: draft.key, context, kept: kept.map((q) => q.label) };
  }
  return undefined;
}
