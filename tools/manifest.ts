/**
 * What Pi loads of a form tool when it starts: the tool's manifest (its name
 * and prompt texts, its parameter schema, the other call shapes it folds into
 * its own, how Pi's transcript shows a call and a result) and its
 * registration. What the tool does once called (check, form, answer) is the
 * engine's (tools/engine/), loaded through its one door (tools/engine.ts) by
 * the first call.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import type { TSchema } from "typebox";
import { displayLine, displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { type Fold, prepareWith } from "../schemas/aliases.js";
import { lenientSchema } from "../schemas/lenient.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";

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

export interface ToolManifest<Details = unknown> {
  name: string;
  label: string;
  description: string;
  promptSnippet: string;
  promptGuidelines: string[];
  /** A few words on what the tool is for, where the model is told it can call it by name. */
  searchHint: string;
  /** The full parameter schema: what the model reads and what ajv checks once called. */
  parameters: TSchema;
  /**
   * Other accepted call shapes, folded into this tool's own in this order,
   * once per call: by Pi before it checks the shape, or by the engine for a
   * call that did not come through Pi.
   */
  folds?: readonly Fold[];
  /** One line about the call's arguments (they may be partial while streaming, or invalid). */
  callSummary(args: unknown): string;
  resultSummary(details: Details): ResultSummary;
}

/** Keep the details type of a manifest while listing it with others. */
export function defineManifest<Details>(manifest: ToolManifest<Details>): ToolManifest<Details> {
  return manifest;
}

/** A manifest of any details type, as listed with the others. */
// biome-ignore lint/suspicious/noExplicitAny: a list of manifests holds every tool's details type
export type AnyManifest = ToolManifest<any>;

/** The folds of a manifest as Pi's `prepareArguments`, or nothing for a tool with none. */
export function prepareArgumentsOf(manifest: AnyManifest): ((raw: unknown) => unknown) | undefined {
  return manifest.folds?.length ? prepareWith(...manifest.folds) : undefined;
}

/** What the transcript adds to an answer the timeout took: the option the model recommended. */
export const BY_TIMEOUT = " (recommended, by timeout)";

/** How the model reaches a tool on Pi 1.x (tools/loadout.ts decides); Pi 0.73 is never given one. */
export interface Reach {
  exposure: "model-only" | "deferred";
  prepareLoadout(): { hiddenDeclarations: string[] };
}

/** What Pi is given for a tool: its manifest, and a call that runs it in the engine. */
export function registerFormTool(pi: ExtensionAPI, state: FormchartState, tool: AnyManifest, reach?: Reach): void {
  pi.registerTool({
    ...(reach ? { exposure: reach.exposure, prepareLoadout: reach.prepareLoadout } : {}),
    name: tool.name,
    label: tool.label,
    description: tool.description,
    promptSnippet: tool.promptSnippet,
    promptGuidelines: tool.promptGuidelines,
    // Pi checks only the shape; every limit is checked once called, so its failure carries a category.
    parameters: lenientSchema(tool.parameters),
    executionMode: "sequential",
    prepareArguments: prepareArgumentsOf(tool),
    execute: async (toolCallId, params, signal, _onUpdate, ctx) =>
      (await loadEngine()).runTool(tool.name, { state, ctx, toolCallId, raw: params, folded: true, signal }),
    renderCall: (args, theme) => new Text(callLine(tool, args, theme), 0, 0),
    renderResult: (result, _options, theme, context) =>
      new Text(resultLines(tool, result.details, result.content, theme, context?.isError), 0, 0),
  });
}

/** `question Which database? (3 options)` */
export function callLine(tool: AnyManifest, args: unknown, theme: FormTheme): string {
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
  tool: AnyManifest,
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
