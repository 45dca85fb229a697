/** A form tool as Pi is given it: its manifest, a call into the engine, and its transcript lines. */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Text } from "@earendil-works/pi-tui";
import { displayLine, displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { lenientSchema } from "../schemas/lenient.js";
import { type AnyManifest, prepareArgumentsOf, type ResultSummary } from "./manifest.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";
import { WAITING_KEY_NAME } from "./waiting-names.js";

/** Pi 0.73 is never given one. */
export interface Reach {
  exposure: "model-only" | "deferred";
  prepareLoadout(): { hiddenDeclarations: string[] };
}

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

/** Pi marks as errors, without details, the calls it refused itself; ours never return an error, and always carry details. */
function fromForm(details: unknown, isError: boolean | undefined): boolean {
  return !isError && typeof details === "object" && details !== null && Object.keys(details).length > 0;
}

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
