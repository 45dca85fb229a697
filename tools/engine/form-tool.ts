/**
 * A form tool as the engine runs it: its manifest and what it does once
 * called. tools/engine/run.ts runs every tool the same way.
 */

import { conditionText, unmeetableCondition } from "../../machines/conditions.js";
import type { FormResult } from "../../machines/context.js";
import { sharedSpec } from "../../machines/shared-spec.js";
import type { FormSpec } from "../../machines/spec.js";
import { safeLine } from "../../renderers/text.js";
import { prepareWith } from "../../schemas/aliases.js";
import type { ArgumentError, Checked, ErrorCategory } from "../../schemas/validate.js";
import type { ToolManifest } from "../manifest.js";

export interface Failure {
  category: ErrorCategory | "no_ui";
  message: string;
}

export interface ToolAnswer<D> {
  text: string;
  details: D;
}

/** What a tool call returns to Pi: its text and its details. */
export type Content = { content: Array<{ type: "text"; text: string }>; details: unknown };

export const content = (text: string, details: unknown): Content => ({ content: [{ type: "text", text }], details });

/** What a tool and `elicit()` share: a tool adds its manifest and its failure details. */
export interface FormJob<Args, Answer> {
  folds?: ToolManifest["folds"];
  /** The schema and the rules a schema cannot state; arguments arrive folded. */
  check(raw: unknown): Checked<Args>;
  form(args: Args): FormSpec;
  /** On top of auto-throttle. */
  cooldownSeconds?(args: Args): number;
  /** A job that has this takes timeouts: without the call's own, the settings' default applies. */
  timeoutSeconds?(args: Args): number | undefined;
  answer(args: Args, spec: FormSpec, result: FormResult): Answer;
}

export interface FormTool<Args = unknown, Details = unknown>
  extends ToolManifest<Details>,
    FormJob<Args, ToolAnswer<Details>> {
  /** The `details` of a call that opened no form; `spec` is known when only the UI was missing. */
  failure(failure: Failure, raw: unknown, spec?: FormSpec): Details;
}

export function defineFormTool<Args, Details>(
  manifest: ToolManifest<Details>,
  behaviour: Omit<FormTool<Args, Details>, keyof ToolManifest<Details>>,
): FormTool<Args, Details> {
  return { ...manifest, ...behaviour };
}

export type AnyFormTool = FormTool<any, any>;

export const NO_UI: Failure = {
  category: "no_ui",
  message:
    "the interactive form needs Pi's terminal UI, which this mode (print or JSON) does not have. Ask the question in plain text instead.",
};

export function failureText(failure: Failure): string {
  return `Error (${failure.category}): ${failure.message}`;
}

export interface PreparedForm<Answer = ToolAnswer<unknown>> {
  spec: FormSpec;
  answer(result: FormResult): Answer;
}

export interface PrepareOptions<A> {
  /** Pi folded the arguments already (its `prepareArguments`): the folds do not run again. */
  folded?: boolean;
  /** The question clock's inside Pi; the job's full cooldown outside. */
  waitMs?(args: A): number;
  defaultTimeoutSeconds?: number;
}

export function prepareForm<A, R>(
  job: FormJob<A, R>,
  raw: unknown,
  options: PrepareOptions<A> = {},
): { ok: true; args: A; form: PreparedForm<R> } | { ok: false; error: ArgumentError } {
  const folded = options.folded || !job.folds?.length ? raw : prepareWith(...job.folds)(raw);
  const checked = job.check(folded);
  if (!checked.ok) return checked;
  const args = checked.value;
  const wait = options.waitMs?.(args) ?? 0;
  const timeout = job.timeoutSeconds ? (job.timeoutSeconds(args) ?? options.defaultTimeoutSeconds ?? 0) : 0;
  const built = job.form(args);
  const never = unmeetableCondition(built);
  if (never) return { ok: false, error: neverShownError(built, never) };
  // The same form asked again shares its spec, and with it the statechart.
  const spec = sharedSpec({
    ...built,
    ...(wait > 0 ? { waitMs: wait } : {}),
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
  });
  return { ok: true, args, form: { spec, answer: (result) => job.answer(args, spec, result) } };
}

/** A question no answer can show, said as the model wrote its conditions, with the answers they read. */
function neverShownError(
  spec: FormSpec,
  { question, field, conditions, off }: NonNullable<ReturnType<typeof unmeetableCondition>>,
) {
  const quoted = (text: string) => `"${safeLine(text, 60)}"`;
  const own = spec.questions[question].id;
  const written = conditions.map((c) => {
    const text = quoted(conditionText(c));
    return c.origin === question ? text : `${text} (for ${quoted(spec.questions[c.origin].id)} to be shown)`;
  });
  const values = field.options.map((o) => quoted(o.value));
  const answers = values.length > 8 ? [...values.slice(0, 8), `${values.length - 8} more`] : values;
  return {
    category: "invalid_condition" as const,
    message: `${quoted(own)} when ${written.join(" and ")} ${written.length > 1 ? "cannot hold together" : "can never hold"}: ${off ? `${quoted(field.id)} is switched off (on: false) and never answered` : `no answer to ${quoted(field.id)} meets ${written.length > 1 ? "them" : "it"}${answers.length ? ` (its options: ${answers.join(", ")})` : ""}`}, so it would never be shown`,
  };
}

/** Outside Pi there is no earlier question to count from. */
export function fullCooldown<A>(job: FormJob<A, unknown>): (args: A) => number {
  return (args) => (job.cooldownSeconds?.(args) ?? 0) * 1000;
}
