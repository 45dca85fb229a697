/**
 * Call shapes models commonly send, folded into the tools' own. Anything not
 * recognised passes through unchanged, for the tool's check to judge and
 * explain; an error in a folded field names it as the model wrote it
 * (schemas/aliases.ts).
 *
 * - options written as plain strings, `["A", "B"]`, become `[{label: "A"}, {label: "B"}]`
 *   (before Pi checks the shape, which wants objects);
 * - a `question_branch` question's nested `branch: {when, on}` (how other
 *   question packages spell it) becomes its top-level `when` / `on` (in the
 *   tool's check: Pi's lenient schema lets `branch` through, and the full
 *   check then judges `when` and `on` under their written names);
 * - `prompt` in place of `question` (`question_input`, `question_throttle`:
 *   the word the questionnaire tools use).
 */
import type { Alias, Fold } from "../schemas/aliases.js";
import { isRecord } from "../schemas/fields.js";

type Json = Record<string, unknown>;

/** String options of one object (`at` is its path with a trailing dot, or ""). */
function labelled(item: unknown, at: string, aliases: Alias[]): unknown {
  if (!isRecord(item) || !Array.isArray(item.options) || !item.options.some((o) => typeof o === "string")) return item;
  const options = item.options.map((o, j) => {
    if (typeof o !== "string") return o;
    aliases.push([`${at}options[${j}].label`, `${at}options[${j}]`]);
    return { label: o };
  });
  return { ...item, options };
}

/** Options as strings become `{label}` objects, at the top level and in every question. */
export const optionsFromStrings: Fold = (args) => {
  if (!isRecord(args)) return { args, aliases: [] };
  const aliases: Alias[] = [];
  const out = labelled(args, "", aliases) as Json;
  const folded = Array.isArray(out.questions)
    ? { ...out, questions: out.questions.map((q, i) => labelled(q, `questions[${i}].`, aliases)) }
    : out;
  return aliases.length ? { args: folded, aliases } : { args, aliases };
};

/**
 * `branch: {when, on}` on a question becomes its own `when` / `on` (a value
 * given directly wins). A `branch` holding anything else, or not an object,
 * is left for the check to report where the model wrote it.
 */
export const unnestBranch: Fold = (args) => {
  if (!isRecord(args) || !Array.isArray(args.questions)) return { args, aliases: [] };
  const aliases: Alias[] = [];
  const questions = args.questions.map((q, i) => {
    if (!isRecord(q) || !isRecord(q.branch)) return q;
    const { branch, ...rest } = q;
    if (Object.keys(branch).some((k) => k !== "when" && k !== "on")) return q;
    const moved: Json = {};
    for (const key of ["when", "on"] as const) {
      if (!(key in branch) || key in rest) continue;
      moved[key] = branch[key];
      aliases.push([`questions[${i}].${key}`, `questions[${i}].branch.${key}`]);
    }
    return { ...rest, ...moved };
  });
  return questions.some((q, i) => q !== (args.questions as unknown[])[i])
    ? { args: { ...args, questions }, aliases }
    : { args, aliases: [] };
};

/** `prompt` where the tool says `question`. */
export const promptAsQuestion: Fold = (args) => {
  if (!isRecord(args) || "question" in args || !("prompt" in args)) return { args, aliases: [] };
  const { prompt, ...rest } = args;
  return { args: { question: prompt, ...rest }, aliases: [["question", "prompt"]] };
};
