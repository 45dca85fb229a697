/** A form tool as Pi is given it: its manifest, a call into the engine, and its transcript lines. */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import { displayLine, displayText } from "../renderers/text.js";
import type { FormTheme } from "../renderers/theme.js";
import { lenientSchema } from "../schemas/lenient.js";
import { type AnyManifest, prepareArgumentsOf, type ResultSummary } from "./manifest.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";
import { keyLabel, shownId } from "./waiting-names.js";

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
    // Read at every render: a question asked with wait: false says how it ended once it has.
    renderResult: (result, _options, theme, context) =>
      liveText(() =>
        resultLines(tool, result.details, result.content, theme, context?.isError, {
          key: keyLabel(state.waitingKey),
          ends: state.waitingEnds,
        }),
      ),
  });
}

function liveText(line: () => string): Component {
  const text = new Text("", 0, 0);
  return {
    render: (width) => {
      text.setText(line());
      return text.render(width);
    },
    invalidate: () => text.invalidate(),
  };
}

/** The tool line of a question asked with wait: false, by how it ended (`undefined`: it waits). */
const ENDED: Readonly<Record<string, string>> = {
  answered: "Answered (%): the answer went to the model",
  refused: "Declined (%): the model was told",
  withdrawn: "Withdrawn (%) by the model",
  timedOut: "Timed out (%): the model got the timed-out result",
  notAnswered: "Not answered (%)",
};

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
  waiting: { key: string; ends: ReadonlyMap<string, string> } = { key: "Alt+A", ends: new Map() },
): string {
  const fields = details as { outcome?: unknown; id?: unknown; answeredIn?: unknown } | undefined;
  if (!isError && fields?.outcome === "pending" && typeof fields.id === "string") {
    const ended = waiting.ends.get(fields.id);
    const line = ended ? (ENDED[ended] ?? "Ended (%)") : `Waiting (%): ${waiting.key} opens it`;
    return theme.fg(
      ended ? "muted" : "warning",
      line.replace("%", () => shownId(fields.id as string)),
    );
  }
  const summary: ResultSummary = fromForm(details, isError) ? tool.resultSummary(details) : { kind: "error" };
  if (summary.kind === "error") {
    const text = blocks.find((c) => c.type === "text")?.text ?? "";
    return theme.fg("error", displayText(text));
  }
  const lines = summary.answers.map(
    (a) => `${theme.fg("success", "✓ ")}${theme.fg("accent", displayLine(a.label, 200))}: ${displayLine(a.value, 400)}`,
  );
  if (fields?.outcome === "timed_out") lines.unshift(theme.fg("warning", "Timed out"));
  else if (summary.declined) lines.unshift(theme.fg("warning", "Declined"));
  else if (summary.cancelled) lines.unshift(theme.fg("warning", "Cancelled"));
  if (typeof fields?.answeredIn === "string")
    lines.push(theme.fg("muted", `Answered in ${displayLine(fields.answeredIn, 80)}`));
  return lines.join("\n") || theme.fg("muted", "No answers");
}
