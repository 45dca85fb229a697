/**
 * The one path from a tool call to a form and back.
 *
 * A `FormTool` says what is particular to a tool: its name and prompt texts,
 * its parameter schema, how its arguments become a `FormSpec`, how a
 * `FormResult` becomes its text and `details`, and what its `details` look
 * like when no form could open. Everything else happens here, the same way
 * for every tool: check the arguments (ajv and the rules), wait as the
 * question clock says, show the form (terminal or dialogs), map the answer;
 * render the call and the result in Pi's transcript. The demo, the
 * visualizer and the tests prepare forms through the same definitions.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import type { TSchema } from "typebox";
import type { FormResult } from "../machines/context.js";
import { sharedSpec } from "../machines/shared-spec.js";
import type { FormSpec } from "../machines/spec.js";
import { displayLine, displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { lenientSchema } from "../schemas/lenient.js";
import type { ArgumentError, Checked, ErrorCategory } from "../schemas/validate.js";
import type { FormchartState } from "./state.js";

/** Why a call opened no form: its arguments, or a host without a terminal UI. */
export interface Failure {
  category: ErrorCategory | "no_ui";
  message: string;
}

export interface ToolAnswer<D> {
  text: string;
  details: D;
}

/** What Pi's transcript shows of a result. */
export type ResultSummary =
  | { kind: "error" }
  | {
      kind: "answers";
      cancelled: boolean;
      /** The person declined to answer (forms that offer it); shown instead of "Cancelled". */
      declined?: boolean;
      /** Nobody pressed a key before the form's timeout; shown instead of "Cancelled". */
      timedOut?: boolean;
      answers: Array<{ label: string; value: string }>;
    };

export interface FormTool<Args = unknown, Details = unknown> {
  name: string;
  label: string;
  description: string;
  promptSnippet: string;
  promptGuidelines: string[];
  /** A few words on what the tool is for, where the model is told it can load the tool with tool_search. */
  searchHint: string;
  /** The full parameter schema: what the model reads and what ajv checks in `execute`. */
  parameters: TSchema;
  /** Folds other accepted call shapes into this tool's own (runs before Pi validates). */
  prepareArguments?(raw: unknown): unknown;
  /** The schema and the rules a schema cannot state. */
  check(raw: unknown): Checked<Args>;
  /** The form to show for checked arguments. */
  form(args: Args): FormSpec;
  /** Seconds this tool keeps between questions by itself (on top of auto-throttle). */
  cooldownSeconds?(args: Args): number;
  /**
   * The call's own timeout in seconds, if it set one. A tool that has this
   * takes timeouts: without one of the call's, the settings' default applies.
   */
  timeoutSeconds?(args: Args): number | undefined;
  /** The model-facing text and `details` of a form that closed. */
  answer(args: Args, spec: FormSpec, result: FormResult): ToolAnswer<Details>;
  /** The `details` of a call that opened no form; `spec` is known when only the UI was missing. */
  failure(failure: Failure, raw: unknown, spec?: FormSpec): Details;
  /** One line about the call's arguments (they may be partial while streaming, or invalid). */
  callSummary(args: unknown): string;
  resultSummary(details: Details): ResultSummary;
}

/** What the transcript adds to an answer the timeout took: the option the model recommended. */
export const BY_TIMEOUT = " (recommended, by timeout)";

/** Keep the argument types of a definition while listing it with others. */
export function defineFormTool<Args, Details>(tool: FormTool<Args, Details>): FormTool<Args, Details> {
  return tool;
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
export interface PreparedForm {
  spec: FormSpec;
  answer(result: FormResult): ToolAnswer<unknown>;
}

/**
 * Check arguments and build the form. `waitMs` is the countdown before it
 * opens (the question clock's, inside Pi; the tool's full cooldown outside).
 */
export function prepareForm<A, D>(
  tool: FormTool<A, D>,
  raw: unknown,
  waitMs?: (args: A) => number,
  defaultTimeoutSeconds?: number,
): { ok: true; args: A; form: PreparedForm } | { ok: false; error: ArgumentError } {
  const checked = tool.check(raw);
  if (!checked.ok) return checked;
  const args = checked.value;
  const wait = waitMs?.(args) ?? 0;
  const timeout = tool.timeoutSeconds ? (tool.timeoutSeconds(args) ?? defaultTimeoutSeconds ?? 0) : 0;
  const built = tool.form(args);
  // The same form asked again shares its spec, and with it the statechart.
  const spec = sharedSpec({
    ...built,
    ...(wait > 0 ? { waitMs: wait } : {}),
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
  });
  return { ok: true, args, form: { spec, answer: (result) => tool.answer(args, spec, result) } };
}

/** The wait outside Pi: the tool's whole cooldown (there is no earlier question to count from). */
export function fullCooldown<A>(tool: FormTool<A, unknown>): (args: A) => number {
  return (args) => (tool.cooldownSeconds?.(args) ?? 0) * 1000;
}

type Content = { content: Array<{ type: "text"; text: string }>; details: unknown };

function content(text: string, details: unknown): Content {
  return { content: [{ type: "text", text }], details };
}

/** Check → wait → show → answer, for any tool. */
export async function runFormTool<A, D>(
  tool: FormTool<A, D>,
  state: FormchartState,
  toolCallId: string,
  raw: unknown,
  signal: AbortSignal | undefined,
  ctx: ExtensionContext,
): Promise<Content> {
  const prepared = prepareForm(
    tool,
    raw,
    (args) => state.waitFor(toolCallId, tool.cooldownSeconds?.(args) ?? 0),
    state.settings.timeoutSeconds,
  );
  if (!prepared.ok) return content(failureText(prepared.error), tool.failure(prepared.error, raw));
  const { spec } = prepared.form;
  const outcome = await state.runForm(ctx, spec, signal, prepared.form.answer);
  if (outcome.kind === "no-ui") return content(failureText(NO_UI), tool.failure(NO_UI, raw, spec));
  const answer = prepared.form.answer(outcome.result);
  return content(answer.text, answer.details);
}

/**
 * How Pi 1.x reaches a tool (tools/loadout.ts decides): its exposure, and
 * the hook that tells Pi which active tools requests leave undeclared.
 * Pi 0.73 knows neither and is never given them.
 */
export interface Reach {
  exposure: "model-only" | "deferred";
  prepareLoadout(): { hiddenDeclarations: string[] };
}

/** What Pi is given for a tool. */
export function registerFormTool<A, D>(
  pi: ExtensionAPI,
  state: FormchartState,
  tool: FormTool<A, D>,
  reach?: Reach,
): void {
  pi.registerTool({
    ...(reach ? { exposure: reach.exposure, prepareLoadout: reach.prepareLoadout } : {}),
    name: tool.name,
    label: tool.label,
    description: tool.description,
    promptSnippet: tool.promptSnippet,
    promptGuidelines: tool.promptGuidelines,
    // Pi checks only the shape; every limit is checked in execute, so its failure carries a category.
    parameters: lenientSchema(tool.parameters),
    executionMode: "sequential",
    prepareArguments: tool.prepareArguments,
    execute: (toolCallId, params, signal, _onUpdate, ctx) => runFormTool(tool, state, toolCallId, params, signal, ctx),
    renderCall: (args, theme) => new Text(callLine(tool, args, theme), 0, 0),
    renderResult: (result, _options, theme, context) =>
      new Text(resultLines(tool, result.details as D | undefined, result.content, theme, context?.isError), 0, 0),
  });
}

/** `question Which database? (3 options)` */
export function callLine(tool: AnyFormTool, args: unknown, theme: FormTheme): string {
  const summary = tool.callSummary(args);
  return (
    theme.fg("accent", theme.bold(tool.name)) + (summary ? theme.fg("muted", ` ${displayLine(summary, 240)}`) : "")
  );
}

/**
 * Whether a result came from a form: Pi marks as errors the calls it refused
 * itself (arguments it could not validate, a tool it does not know, a call an
 * extension blocked), and gives those no details; this extension's tool
 * never returns an error, and its details are never empty.
 */
function fromForm(details: unknown, isError: boolean | undefined): boolean {
  return !isError && typeof details === "object" && details !== null && Object.keys(details).length > 0;
}

/** One line per answered question, or the error (wherever no form opened), or that the form was cancelled. */
export function resultLines(
  tool: AnyFormTool,
  details: unknown,
  blocks: Array<{ type: string; text?: string }>,
  theme: FormTheme,
  isError?: boolean,
): string {
  const summary: ResultSummary = fromForm(details, isError) ? tool.resultSummary(details) : { kind: "error" };
  if (summary.kind === "error") {
    const text = blocks.find((c) => c.type === "text")?.text ?? "";
    return theme.fg("error", displayText(text));
  }
  const lines = summary.answers.map(
    (a) => `${theme.fg("success", "✓ ")}${theme.fg("accent", displayLine(a.label, 200))}: ${displayLine(a.value, 400)}`,
  );
  if (summary.timedOut) lines.unshift(theme.fg("warning", "Timed out"));
  else if (summary.declined) lines.unshift(theme.fg("warning", "Declined"));
  else if (summary.cancelled) lines.unshift(theme.fg("warning", "Cancelled"));
  return lines.join("\n") || theme.fg("muted", "No answers");
}

/** What a question brings as options: a count, or what its type generates. */
function optionNote(item: { options?: unknown; type?: unknown }): string {
  if (item.type === "yes_no") return " (Yes/No)";
  if (item.type === "rating") return " (rating 1-5)";
  if (Array.isArray(item.options)) return ` (${item.options.length} option${item.options.length === 1 ? "" : "s"})`;
  if (item.type === "number" || item.type === "email" || item.type === "date") return ` (${item.type})`;
  return "";
}

/**
 * `2 questions (Scope, Checks)`, or the one question with its option count
 * (`Which database? (3 options)`, `Ship it? (Yes/No)`, `Which day? (date)`),
 * for every call shape a tool accepts, as written (arguments may be partial
 * while they stream in).
 */
export function describeCall(args: unknown): string {
  const a = (args ?? {}) as {
    question?: unknown;
    prompt?: unknown;
    questions?: unknown;
    options?: unknown;
    title?: unknown;
    type?: unknown;
  };
  const asked = typeof a.question === "string" ? a.question : typeof a.prompt === "string" ? a.prompt : undefined;
  if (asked !== undefined && !Array.isArray(a.questions)) return `${asked}${optionNote(a)}`;
  if (!Array.isArray(a.questions)) return "";
  const title = typeof a.title === "string" ? `${a.title}: ` : "";
  if (a.questions.length === 1) {
    const q = (a.questions[0] ?? {}) as { prompt?: unknown; options?: unknown; type?: unknown };
    return `${title}${typeof q.prompt === "string" ? q.prompt : ""}${optionNote(q)}`;
  }
  const labels = a.questions.slice(0, 20).map((q, i) => {
    const item = (q ?? {}) as { label?: unknown; id?: unknown };
    const name = typeof item.label === "string" ? item.label : typeof item.id === "string" ? item.id : "";
    return name || `Q${i + 1}`;
  });
  const more = a.questions.length > labels.length ? ", …" : "";
  return `${title}${a.questions.length} questions (${labels.join(", ")}${more})`;
}
