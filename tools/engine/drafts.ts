/**
 * Nothing the person typed is lost: a form that ends without submit (Esc, an
 * aborted call, a failure) is kept in the session as a draft entry; when the
 * same form is asked again it opens with the draft restored. A submit clears
 * the draft. A draft is data from a file: it is checked before it is used.
 */
import { createHash } from "node:crypto";
import type { FormContext, FormState } from "../../machines/context.js";
import { restoreContext } from "../../machines/entered.js";
import type { FormSpec } from "../../machines/spec.js";
import { checkStoredDraft } from "../../schemas/draft.js";

export const DRAFT_ENTRY = "pi-formchart-draft";

export interface DraftData {
  key: string;
  /** Absent when the form was submitted and the draft is cleared. */
  context?: FormState;
}

/**
 * Identity of a form: everything that decides what an answer may be (its
 * questions, their kinds, options, whether typed answers are allowed, the
 * checks on them, their counts and conditions). A draft of a form that
 * changed in any of these is not offered back.
 */
export function formKey(spec: FormSpec): string {
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
  return createHash("sha256")
    .update(JSON.stringify([shape, spec.additionalNotes === true]))
    .digest("hex")
    .slice(0, 32);
}

interface EntryLike {
  type: string;
  customType?: string;
  data?: unknown;
}

/**
 * The latest draft for this form among session entries, unless a submit
 * cleared it. A draft whose shape is not what drafts are (checked with a
 * schema) is ignored, and one that is gets fitted to the form as it is now.
 */
export function findDraft(entries: readonly EntryLike[], key: string, spec: FormSpec): FormContext | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type !== "custom" || e.customType !== DRAFT_ENTRY) continue;
    const checked = checkStoredDraft(e.data);
    if (!checked.ok || checked.value.key !== key) continue;
    return checked.value.context ? restoreContext(spec, checked.value.context) : undefined;
  }
  return undefined;
}
