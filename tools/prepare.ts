/**
 * Call shapes models commonly send, folded into the tools' own. Anything not
 * recognised passes through unchanged, for the tool's check to explain; an
 * error in a folded field names it as the model wrote it (schemas/aliases.ts).
 */
import type { Alias, Fold } from "../schemas/aliases.js";
import { isRecord } from "../schemas/fields.js";

type Json = Record<string, unknown>;

/** `at`: the object's path with a trailing dot, or "". */
function labelled(item: unknown, at: string, aliases: Alias[]): unknown {
  if (!isRecord(item) || !Array.isArray(item.options) || !item.options.some((o) => typeof o === "string")) return item;
  const options = item.options.map((o, j) => {
    if (typeof o !== "string") return o;
    aliases.push([`${at}options[${j}].label`, `${at}options[${j}]`]);
    return { label: o };
  });
  return { ...item, options };
}

/** Before Pi checks the shape, which wants objects. */
export const optionsFromStrings: Fold = (args) => {
  if (!isRecord(args)) return { args, aliases: [] };
  const aliases: Alias[] = [];
  const out = labelled(args, "", aliases) as Json;
  const folded = Array.isArray(out.questions)
    ? { ...out, questions: out.questions.map((q, i) => labelled(q, `questions[${i}].`, aliases)) }
    : out;
  return aliases.length ? { args: folded, aliases } : { args, aliases };
};

/** How other question packages spell `when` / `on`; a value given directly wins, anything else is left for the check. */
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

/** The word the questionnaire tools use. */
export const promptAsQuestion: Fold = (args) => {
  if (!isRecord(args) || "question" in args || !("prompt" in args)) return { args, aliases: [] };
  const { prompt, ...rest } = args;
  return { args: { question: prompt, ...rest }, aliases: [["question", "prompt"]] };
};
