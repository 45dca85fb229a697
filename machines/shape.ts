import { type FormSpec, isTabbed, type QuestionSpec } from "./spec.js";

/**
 * What of a spec decides the chart's states and transitions. Texts, options,
 * checks and the conditions themselves are not part of it: the guards and
 * actions read those from the context, so every spec of one shape runs one machine.
 */
export interface ChartShape {
  tabbed: boolean;
  waits: boolean;
  timed: boolean;
  declinable: boolean;
  additionalNotes: boolean;
  /** A default answer may show a conditional question before anything is entered. */
  defaults: boolean;
  questions: Array<{
    kind: QuestionSpec["kind"];
    allowOther: boolean;
    notes: boolean;
    autoAdvance: boolean;
    required: boolean;
    visibility: QuestionSpec["visibility"]["kind"];
    allMayBeChosen: boolean;
  }>;
}

/** What makes no difference to the chart is left out, so that more forms share a machine. */
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
