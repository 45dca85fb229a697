/**
 * The answers at which a form's conditions decide: for each condition, the
 * nearest answer on either side of its boundary (`size gte 4` over 1–5: 3 and
 * 4), and each member of an `in` list. Routes must give each once.
 */
import { type Condition, conditionText, holds, NO_RESPONSE } from "../../machines/conditions.js";
import { answerValues, type FormContext } from "../../machines/context.js";
import type { FormSpec, QuestionSpec } from "../../machines/spec.js";
import { textProblems } from "../../machines/text-rules.js";
import { patternTexts, typedSamples } from "./samples.js";

export interface Witness {
  question: number;
  condition: number;
  /** The question the condition reads. */
  field: number;
  value: string;
  holds: boolean;
  /** The option that gives it, or -1 for a typed answer. */
  option: number;
}

/** A condition outcome's name in coverage: `team #0 Size=3 false`. */
export function witnessId(spec: FormSpec, w: Witness): string {
  return `${spec.questions[w.question].id} #${w.condition} ${spec.questions[w.field].id}=${w.value} ${w.holds}`;
}

function scalarOf(condition: Condition): string {
  return Array.isArray(condition.value) ? condition.value.join(", ") : (condition.value ?? "");
}

const NUMERIC = new Set(["gt", "lt", "gte", "lte"]);

/**
 * Its value, the numbers either side of it, its list, texts its pattern draws (`matches`), the
 * text that counts as empty (`is_empty`), the answer's own samples and one unrelated. Only texts the answer's rule accepts: a refused one is
 * never given.
 */
function typedCandidates(condition: Condition, source: QuestionSpec): string[] {
  const scalar = scalarOf(condition);
  const out = [scalar];
  const n = Number(scalar);
  if (scalar.trim() !== "" && Number.isFinite(n)) out.push(String(n - 1), String(n + 1));
  if (Array.isArray(condition.value)) out.push(...condition.value);
  if (condition.operator === "matches") out.push(...patternTexts(scalar));
  // The typed text that counts as empty: the only typed answer `is_empty` holds on.
  if (condition.operator === "is_empty" || condition.operator === "is_not_empty") out.push(NO_RESPONSE);
  out.push("Blue", ...(source.text ? typedSamples(source.text, source.placeholder) : []));
  const rule = source.text;
  return [...new Set(out.filter((v) => v.trim() !== "" && (!rule || textProblems(rule, v).length === 0)))];
}

function accepts(q: QuestionSpec): boolean {
  return q.kind === "text" || q.allowOther;
}

/** The answers worth giving the question a condition reads: its options, then typed texts its rule accepts. */
function answersFor(spec: FormSpec, condition: Condition) {
  const field = spec.questions.findIndex((q) => q.id === condition.field);
  const source = spec.questions[field];
  const candidates: Array<{ value: string; option: number }> = (source?.options ?? []).map((o, i) => ({
    value: o.value,
    option: i,
  }));
  if (source && accepts(source))
    for (const value of typedCandidates(condition, source))
      if (!candidates.some((c) => c.value === value)) candidates.push({ value, option: -1 });
  return { field, source, candidates };
}

function witnessesOf(spec: FormSpec, question: number, index: number, condition: Condition): Witness[] {
  const { field, candidates } = answersFor(spec, condition);
  if (field < 0) return [];
  const right = Number(scalarOf(condition));
  const distance = (value: string) => {
    if (!NUMERIC.has(condition.operator)) return 0;
    const left = Number(value);
    return value.trim() === "" || !Number.isFinite(left) ? Number.POSITIVE_INFINITY : Math.abs(left - right);
  };
  const make = (c: { value: string; option: number }): Witness => ({
    question,
    condition: index,
    field,
    value: c.value,
    holds: holds(condition, [c.value]),
    option: c.option,
  });
  const out: Witness[] = [];
  for (const side of [false, true]) {
    const fitting = candidates.filter((c) => holds(condition, [c.value]) === side);
    // An option before a typed answer when both are as near: the person's likelier way there.
    const best = fitting.sort((a, b) => distance(a.value) - distance(b.value))[0];
    if (best) out.push(make(best));
  }
  if (condition.operator === "in" && Array.isArray(condition.value))
    for (const member of condition.value) {
      const c = candidates.find((x) => x.value === member);
      if (c && !out.some((w) => w.value === member)) out.push(make(c));
    }
  return out;
}

export function witnessesOfForm(spec: FormSpec): Witness[] {
  return spec.questions.flatMap((q, i) =>
    q.visibility.kind === "when" ? q.visibility.conditions.flatMap((c, j) => witnessesOf(spec, i, j, c)) : [],
  );
}

/** Those whose question was answered with exactly their one value. */
export function witnessesGiven(spec: FormSpec, witnesses: readonly Witness[], context: FormContext): Witness[] {
  return witnesses.filter((w) => {
    const values = answerValues(spec, context, spec.questions[w.field].id);
    return values !== undefined && values.length === 1 && values[0] === w.value;
  });
}

/** Per question a condition reads, the options and typed texts a route should offer. */
export function decidingAnswers(spec: FormSpec, witnesses: readonly Witness[]) {
  const options = spec.questions.map(() => new Set<number>());
  const typed = spec.questions.map(() => new Set<string>());
  for (const w of witnesses) {
    if (w.option >= 0) options[w.field].add(w.option);
    else typed[w.field].add(w.value);
  }
  return { options, typed };
}

/**
 * What the search cannot decide, each with why: a typed answer's rule no text drawn for it passes
 * (its pattern beyond what randexp draws, or against its lengths), and a side of a condition on a
 * typed answer no tried text meets (`matches` a pattern no drawn text fits). Whether such an answer
 * exists is not known, so what needs it is neither covered nor missed.
 */
export function undecided(spec: FormSpec): string[] {
  const out: string[] = [];
  for (const q of spec.questions) {
    const rule = q.text;
    if (rule && !typedSamples(rule, q.placeholder).some((t) => textProblems(rule, t).length === 0))
      out.push(`no text drawn for "${q.id}" passes its rule, so its answer is never given`);
  }
  spec.questions.forEach((q) => {
    if (q.visibility.kind !== "when") return;
    for (const condition of q.visibility.conditions) {
      const { source, candidates } = answersFor(spec, condition);
      if (!source || !accepts(source)) continue;
      for (const side of [true, false])
        if (!candidates.some((c) => holds(condition, [c.value]) === side))
          out.push(
            `no answer tried for "${source.id}" ${side ? "meets" : "fails"} "${conditionText(condition)}" (on "${q.id}")`,
          );
    }
  });
  return out;
}
