/**
 * Call shapes models commonly send, folded into the tools' own before Pi
 * checks them (`prepareArguments`): anything not recognised passes through
 * unchanged, for the tool's check to judge and explain.
 *
 * - options written as plain strings, `["A", "B"]`, become `[{label: "A"}, {label: "B"}]`;
 * - a `question_branch` question's nested `branch: {when, on}` (how other
 *   question packages spell it) becomes its top-level `when` / `on`.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function labelled(options: unknown): unknown {
  if (!Array.isArray(options) || !options.some((o) => typeof o === "string")) return options;
  return options.map((o) => (typeof o === "string" ? { label: o } : o));
}

function withOptions(item: unknown): unknown {
  return isRecord(item) && "options" in item ? { ...item, options: labelled(item.options) } : item;
}

/** Options as strings become `{label}` objects, at the top level and in every question. */
export function optionsFromStrings(args: unknown): unknown {
  if (!isRecord(args)) return args;
  const out = withOptions(args) as Json;
  return Array.isArray(out.questions) ? { ...out, questions: out.questions.map(withOptions) } : out;
}

/** `branch: {when, on}` on a question becomes its own `when` / `on` (a value given directly wins). */
export function unnestBranch(args: unknown): unknown {
  if (!isRecord(args) || !Array.isArray(args.questions)) return args;
  const questions = args.questions.map((q) => {
    if (!isRecord(q) || !isRecord(q.branch)) return q;
    const { branch, ...rest } = q;
    const extra = Object.keys(branch).filter((k) => k !== "when" && k !== "on");
    // Something else inside `branch` is left for the check to report where the model wrote it.
    if (extra.length) return q;
    return { ...branch, ...rest };
  });
  return { ...args, questions };
}
