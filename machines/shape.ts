import { fitPicks, picksAnswer } from "./initial.js";
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
    /** Required and able to be open (shown, not settled by its default): a seek may have to stop at it. */
    required: boolean;
    visibility: QuestionSpec["visibility"]["kind"];
    allMayBeChosen: boolean;
    /** Nothing entered here can differ from how the form opened: one option, picked by default. */
    fixed: boolean;
    /** The questions it is shown only once answered, through the questions its conditions read. */
    needs: number[];
  }>;
}

/**
 * A single choice always shown whose default answers it is never open: no answer is taken back
 * (only a hidden question loses its answer), so no seek has to stop there.
 */
function settled(q: QuestionSpec): boolean {
  return q.kind === "single" && q.visibility.kind === "always" && !!q.initial && picksAnswer(q, fitPicks(q, q.initial));
}

/**
 * A condition never holds on an unanswered question, and a hidden one loses its answer, so a
 * question shown only when its conditions hold is shown only with every question they read (and
 * those read in turn) answered.
 */
function needs(spec: FormSpec, k: number): number[] {
  const found = new Set<number>();
  const visit = (q: number) => {
    const v = spec.questions[q].visibility;
    if (v.kind !== "when") return;
    for (const c of v.conditions) {
      const j = spec.questions.findIndex((o) => o.id === c.field);
      if (j >= 0 && !found.has(j)) {
        found.add(j);
        visit(j);
      }
    }
  };
  visit(k);
  return [...found].sort((a, b) => a - b);
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
    questions: spec.questions.map((q, k) => ({
      kind: q.kind,
      allowOther: q.allowOther,
      notes: q.notes,
      autoAdvance: tabbed && q.autoAdvance,
      required: tabbed && q.required && !settled(q) && q.visibility.kind !== "never",
      visibility: q.visibility.kind,
      allMayBeChosen: q.kind === "multi" && (q.count?.max ?? Number.POSITIVE_INFINITY) >= q.options.length,
      needs: needs(spec, k),
      fixed: settled(q) && q.options.length === 1 && !q.allowOther && !q.notes,
    })),
  };
}
