/**
 * `/formchart try [example|file]`: a form opened as a model's call opens it,
 * and what that call would have returned, shown to the person only. No
 * message is sent and no turn starts.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { AutocompleteItem } from "@earendil-works/pi-tui";
import { displayLine, displayText } from "../renderers/text.js";
import { DEFAULT_EXAMPLE, exampleNames, resolveFormFile } from "./form-files.js";
import { loadEngine } from "./on-demand.js";
import type { FormchartState } from "./state.js";

/** The lines of the call's text shown: with the heading and the details, 12 in all. */
const SHOWN_LINES = 10;

export interface TryReply {
  text: string;
  level: "info" | "warning" | "error";
}

/** `try single`, `try rich` …, for the names that start with what was typed after `try `. */
export function tryCompletions(typed: string): AutocompleteItem[] {
  return exampleNames()
    .filter((name) => name.startsWith(typed))
    .map((name) => ({ value: `try ${name}`, label: name }));
}

export async function tryForm(arg: string, state: FormchartState, ctx: ExtensionContext): Promise<TryReply> {
  const name = arg.trim() || (await chooseExample(ctx));
  if (name === undefined) return { text: "Nothing tried: no example was chosen.", level: "info" };
  const file = resolveFormFile(name, ctx.cwd);
  if (!file) {
    const examples = exampleNames().join(", ");
    return { text: `No form file or example named "${displayLine(name, 200)}". Examples: ${examples}`, level: "error" };
  }
  const tried = await (await loadEngine()).tryCall(file, state, ctx);
  if (!tried.ok) return { text: `/formchart try: ${displayLine(tried.message, 600)}`, level: "error" };
  const text = displayText(tried.text, 4000).split("\n");
  // Bounded, so the heading stays in view in a short terminal.
  const shown = text.length <= SHOWN_LINES ? text : text.slice(0, SHOWN_LINES - 1);
  const more = text.length - shown.length;
  return {
    text: [
      `Tried ${displayLine(name, 200)} (${tried.tool}); nothing was sent to the model. Its call would have returned:`,
      ...shown.map((line) => `  ${displayLine(line, 200)}`),
      ...(more ? [`  … ${more} more lines`] : []),
      `  details: ${detailsSummary(tried.details)}`,
    ].join("\n"),
    level: "info",
  };
}

/** A short list to pick from where someone can pick; the example `npm start` shows where no one can. */
async function chooseExample(ctx: ExtensionContext): Promise<string | undefined> {
  if (!ctx.hasUI) return DEFAULT_EXAMPLE;
  return ctx.ui.select("Try which example form? (Esc: none)", exampleNames());
}

/** `outcome: "submitted" · answers: 2 items · cancelled: false`: each field of `details` in a few characters. */
export function detailsSummary(details: unknown): string {
  if (typeof details !== "object" || details === null) return displayLine(String(details), 200);
  const fields = Object.entries(details).map(([key, value]) => `${key}: ${valueSummary(value)}`);
  return displayLine(fields.join(" · "), 600);
}

function valueSummary(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "object" && value !== null) return `{${Object.keys(value).join(", ")}}`;
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
}
