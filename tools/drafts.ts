/**
 * Nothing the person typed is lost: a form that ends without submit (Esc, an
 * aborted call, a failure) is kept in the session as a draft entry; when the
 * same form (same questions and options) is asked again it opens with the
 * draft restored. A submit clears the draft.
 */
import { createHash } from "node:crypto";
import type { FormContext } from "../machines/context.js";
import type { FormSpec } from "../machines/spec.js";

export const DRAFT_ENTRY = "pi-formchart-draft";

export interface DraftData {
  key: string;
  /** Absent when the form was submitted and the draft is cleared. */
  context?: FormContext;
}

/** Identity of a form: its questions, their kinds and options. */
export function formKey(spec: FormSpec): string {
  const shape = spec.questions.map((q) => [q.id, q.kind, q.prompt, q.options.map((o) => [o.label, o.value])]);
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 32);
}

interface EntryLike {
  type: string;
  customType?: string;
  data?: unknown;
}

/** The latest draft for this form among session entries, unless a submit cleared it. */
export function findDraft(entries: readonly EntryLike[], key: string, spec: FormSpec): FormContext | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type !== "custom" || e.customType !== DRAFT_ENTRY) continue;
    const data = e.data as DraftData | undefined;
    if (data?.key !== key) continue;
    return data.context && fits(data.context, spec) ? { ...data.context, outcome: "open", waited: false } : undefined;
  }
  return undefined;
}

/** A stored context is used only if its shape matches the form. */
function fits(context: FormContext, spec: FormSpec): boolean {
  const n = spec.questions.length;
  return [context.cursors, context.picks, context.answered, context.drafts, context.notes].every(
    (list) => Array.isArray(list) && list.length === n,
  );
}
