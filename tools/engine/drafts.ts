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
  /** Absent when the form was submitted and the draft is cleared. */
  context?: FormState;
  /** Each question's id and what its answers may be: a changed form takes back the ones that match. */
  questions?: StoredQuestion[];
}

function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 32);
}

/** What a question's answers are made of: its kind and options. An answer is offered back only where these match. */
function answerShape(q: QuestionSpec): string {
  return hash([q.kind, q.options.map((o) => [o.label, o.value])]);
}

/** The questions of a form as a draft records them. */
export function draftQuestions(spec: FormSpec): StoredQuestion[] {
  return spec.questions.map((q) => ({ id: q.id, shape: answerShape(q) }));
}

/**
 * Identity of a form: everything that decides what an answer may be (its
 * questions, their kinds, options, whether typed answers are allowed, the
 * checks on them, their counts and conditions). A draft of a form that
 * changed in any of these is not offered back.
 */
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
  /** The key of the draft's own form: a submit clears that one. */
  key: string;
  context: FormContext;
  /** Labels of the questions whose answers came back, when the form changed since; absent when it is the same form. */
  kept?: string[];
}

/**
 * The draft's context laid out for this form: each question takes the
 * stored one with the same id and answer shape, or opens empty. Undefined
 * when no question matches (a draft of another form restores nothing).
 */
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

/** Whether a restored question holds anything the person entered. */
function holdsInput(context: FormContext, k: number): boolean {
  return (
    context.answered[k] ||
    context.picks[k].options.length > 0 ||
    context.picks[k].custom.length > 0 ||
    context.drafts[k].trim() !== "" ||
    Object.values(context.notes[k]).some((t) => t.trim() !== "")
  );
}

/**
 * The latest draft for this form among session entries, unless a submit
 * cleared it. A draft whose shape is not what drafts are (checked with a
 * schema) is ignored, and one that is gets fitted to the form as it is now.
 * A draft of a changed form gives back the answers of the questions that
 * still match (`kept` names them); one with nothing that matches gives none.
 */
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
