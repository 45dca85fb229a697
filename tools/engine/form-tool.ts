/**
 * A form tool as the engine runs it: its manifest (what Pi loaded at start,
 * tools/manifest.ts) and what it does once called: check the arguments (the
 * schema and the rules a schema cannot state), build the form, map the
 * result to the text the model reads and the `details` programs read, and
 * say what the details are when no form opened. tools/engine/run.ts runs
 * every tool the same way.
 */
import type { FormResult } from "../../machines/context.js";
import { sharedSpec } from "../../machines/shared-spec.js";
import type { FormSpec } from "../../machines/spec.js";
import { prepareWith } from "../../schemas/aliases.js";
import type { ArgumentError, Checked, ErrorCategory } from "../../schemas/validate.js";
import type { ToolManifest } from "../manifest.js";

/** Why a call opened no form: its arguments, or a host without a terminal UI. */
export interface Failure {
  category: ErrorCategory | "no_ui";
  message: string;
}

export interface ToolAnswer<D> {
  text: string;
  details: D;
}

/**
 * What a form asks and how its result is read (`Answer`: what the caller
 * gets); a tool adds its manifest and its failure details, `elicit()` reads
 * MCP's result from the same.
 */
export interface FormJob<Args, Answer> {
  /** Other accepted call shapes, folded into the job's own before `check`. */
  folds?: ToolManifest["folds"];
  /** The schema and the rules a schema cannot state; arguments arrive folded. */
  check(raw: unknown): Checked<Args>;
  /** The form to show for checked arguments. */
  form(args: Args): FormSpec;
  /** Seconds this tool keeps between questions by itself (on top of auto-throttle). */
  cooldownSeconds?(args: Args): number;
  /**
   * The call's own timeout in seconds, if it set one. A job that has this
   * takes timeouts: without one of the call's, the settings' default applies.
   */
  timeoutSeconds?(args: Args): number | undefined;
  /** What the caller gets of a form that closed. */
  answer(args: Args, spec: FormSpec, result: FormResult): Answer;
}

export interface FormTool<Args = unknown, Details = unknown>
  extends ToolManifest<Details>,
    FormJob<Args, ToolAnswer<Details>> {
  /** The `details` of a call that opened no form; `spec` is known when only the UI was missing. */
  failure(failure: Failure, raw: unknown, spec?: FormSpec): Details;
}

/** A tool: its manifest, with what it does once called. */
export function defineFormTool<Args, Details>(
  manifest: ToolManifest<Details>,
  behaviour: Omit<FormTool<Args, Details>, keyof ToolManifest<Details>>,
): FormTool<Args, Details> {
  return { ...manifest, ...behaviour };
}

/** A tool of any argument and details types, as listed with the others. */
export type AnyFormTool = FormTool<any, any>;

export const NO_UI: Failure = {
  category: "no_ui",
  message:
    "the interactive form needs Pi's terminal UI, which this mode (print or JSON) does not have. Ask the question in plain text instead.",
};

export function failureText(failure: Failure): string {
  return `Error (${failure.category}): ${failure.message}`;
}

/** A form ready to show, with the mapping of its result; what the demo and the visualizer run. */
export interface PreparedForm<Answer = ToolAnswer<unknown>> {
  spec: FormSpec;
  answer(result: FormResult): Answer;
}

export interface PrepareOptions<A> {
  /** Pi folded the arguments already (its `prepareArguments`): the folds do not run again. */
  folded?: boolean;
  /** The countdown before the form opens (the question clock's, inside Pi; the job's full cooldown outside). */
  waitMs?(args: A): number;
  /** The settings' timeout, for a job that takes one and a call that set none. */
  defaultTimeoutSeconds?: number;
}

/** Fold (once), check and build the form. */
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
  // The same form asked again shares its spec, and with it the statechart.
  const spec = sharedSpec({
    ...built,
    ...(wait > 0 ? { waitMs: wait } : {}),
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
  });
  return { ok: true, args, form: { spec, answer: (result) => job.answer(args, spec, result) } };
}

/** The wait outside Pi: the job's whole cooldown (there is no earlier question to count from). */
export function fullCooldown<A>(job: FormJob<A, unknown>): (args: A) => number {
  return (args) => (job.cooldownSeconds?.(args) ?? 0) * 1000;
}
