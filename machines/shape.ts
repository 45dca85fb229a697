/** The shape of a form (`chartShape`): the part of a spec its statechart is built from. */
import { type FormSpec, isTabbed, type QuestionSpec } from "./spec.js";

/**
 * What of a spec decides the chart's states and transitions: how many
 * questions, of which kind, with which rows and editors, whether conditions
 * can hide them, and what the form as a whole offers. Texts, options, checks
 * and the conditions themselves are not part of it: the guards and actions
 * read those from the context. Every spec of one shape runs the same machine
 * (`formMachine`).
 */
export interface ChartShape {
  tabbed: boolean;
  waits: boolean;
  /** The form closes by itself when nobody answers in time (a timeout, stopped by any key). */
  timed: boolean;
  declinable: boolean;
  additionalNotes: boolean;
  /** Some question opens with a default answer, which may show a conditional question before anything is entered. */
  defaults: boolean;
  questions: Array<{
    kind: QuestionSpec["kind"];
    allowOther: boolean;
    notes: boolean;
    autoAdvance: boolean;
    /** A required question can be open: an answer given from the review screen may lead to it. */
    required: boolean;
    visibility: QuestionSpec["visibility"]["kind"];
    /** Every option may be ticked at once (no count below the number of options). */
    allMayBeChosen: boolean;
  }>;
}

/**
 * The shape of a spec. What makes no difference to the chart is left out, so
 * that more forms share a machine: moving on after an answer only where there
 * are tabs, ticking every option only in a multi-select.
 */
export function chartShape(spec: FormSpec): ChartShape {
  const tabbed = isTabbed(spec);
  return {
    tabbed,
    waits: (spec.waitMs ?? 0) > 0,
    timed: (spec.timeoutMs ?? 0) > 0,
    declinable: spec.declinable === true,
    additionalNotes: spec.additionalNotes === true,
    defaults: spec.questions.some((q) => q.initial !== undefined),
    questions: spec.questions.map((q) => ({
      kind: q.kind,
      allowOther: q.allowOther,
      notes: q.notes,
      autoAdvance: tabbed && q.autoAdvance,
      required: tabbed && q.required,
      visibility: q.visibility.kind,
      allMayBeChosen: q.kind === "multi" && (q.count?.max ?? Number.POSITIVE_INFINITY) >= q.options.length,
    })),
  };
}
