/**
 * A form tool as Pi is given it: its manifest (tools/manifest.ts), a call
 * that runs it in the engine (loaded through its door on the first call),
 * and the lines Pi's transcript shows of the call and of its result.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import { displayLine, displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { lenientSchema } from "../schemas/lenient.js";
import { type AnyManifest, prepareArgumentsOf, type ResultSummary } from "./manifest.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";
import { WAITING_KEY_NAME } from "./waiting-names.js";

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
  const pending = details as { outcome?: unknown; id?: unknown } | undefined;
  if (!isError && pending?.outcome === "pending" && typeof pending.id === "string")
    return theme.fg("warning", `Waiting (${displayLine(pending.id, 40)}): ${WAITING_KEY_NAME} opens it`);
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
