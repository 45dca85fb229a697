/**
 * What a request carries of the tools a set declares, and how it reaches the
 * ones it does not.
 *
 * Costs are what a request carries (`npm run bench` counts the same way, in
 * the OpenAI chat-completions shape the scripted model receives): each
 * declaration as an entry of `tools` (Pi 0.73's entries add `"strict": false`),
 * its line in the system prompt's tool list and its rules. The end-to-end
 * test tools-seen compares them with a real request on both hosts.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { lenientSchema } from "../schemas/lenient.js";
import { type AnyManifest, WAIT_LINE } from "./manifest.js";

export const TOOL_SEARCH = "tool_search";

/** What a request carries of a declared tool. */
export interface Declaration {
  name: string;
  description: string;
  parameters: unknown;
  promptSnippet?: string;
  promptGuidelines?: readonly string[];
}

const chars = (s: string) => [...s].length;

/**
 * Characters a declared tool adds to every request: its `tools` entry, its
 * tool-list line and its rules. Pi 0.73's entries also say `"strict": false`.
 */
export function requestChars(tool: Declaration, strictField = false): number {
  const { name, description, parameters } = tool;
  const fn = { name, description, parameters, ...(strictField ? { strict: false } : {}) };
  const entry = JSON.stringify({ type: "function", function: fn });
  const line = tool.promptSnippet ? `- ${name}: ${tool.promptSnippet}\n` : "";
  return chars(entry) + chars(line) + ruleChars(tool.promptGuidelines ?? []);
}

/** A tool as Pi is given it. */
export function declarationOf(tool: AnyManifest): Declaration {
  return { ...tool, parameters: lenientSchema(tool.parameters) };
}

/** The line that names the tools a set leaves undeclared, if it leaves any, for tool_search to declare. */
export function reachLine(undeclared: readonly AnyManifest[]): string | undefined {
  if (undeclared.length === 0) return undefined;
  return `Also by name or tool_search: ${undeclared.map((t) => t.name).join(", ")}.`;
}

/**
 * The line that gives the tools a set leaves undeclared as call shapes, if it
 * leaves any: `ask_form(title?, message, schema: {type, properties, required?}, timeout?)`.
 * Hidden declarations are still callable and checked (tools/register.ts), so
 * this is enough to call them, without Pi's tool_search.
 */
export function signatureLine(undeclared: readonly AnyManifest[]): string | undefined {
  if (undeclared.length === 0) return undefined;
  return `Also callable: ${undeclared.map((t) => `${t.name}(${fieldsOf(t.parameters)})`).join("; ")}.`;
}

/** `a, b?: x|y, c: [{d, e?: [...]}]`: the declared properties of an object schema, two levels deep (see schemas/lenient.ts). */
function fieldsOf(schema: unknown, depth = 0): string {
  const node = schema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const required = new Set(node.properties ? (node.required ?? []) : []);
  return Object.entries(node.properties ?? {})
    .filter(([, field]) => field.readOnly !== true)
    .map(([key, field]) => `${key}${required.has(key) ? "" : "?"}${shapeOf(field, depth)}`)
    .join(", ");
}

function shapeOf(field: Record<string, unknown>, depth: number): string {
  if (Array.isArray(field.enum)) return `: ${field.enum.join("|")}`;
  const items = field.items as Record<string, unknown> | undefined;
  if (field.type === "array" && items?.properties) return depth > 0 ? ": [...]" : `: [{${fieldsOf(items, depth + 1)}}]`;
  if (field.type !== "object" || !field.properties) return "";
  return depth > 0 ? ": {...}" : `: {${fieldsOf(field, depth + 1)}}`;
}

/** Characters of `tool_search`'s declaration and tool-list line, as a request carries them. */
export function searchCost(pi: ExtensionAPI, searchSnippet?: string): number | undefined {
  const search = pi.getAllTools().find((tool) => tool.name === TOOL_SEARCH);
  return search ? requestChars({ ...search, promptSnippet: searchSnippet }) : undefined;
}

/**
 * How a set reaches the tools it leaves undeclared: Pi's tool_search with a
 * line naming them, or their call shapes in one line, whichever a request
 * carries in fewer characters (call shapes where there is no tool_search).
 */
export function reachOf(undeclared: readonly AnyManifest[], search: number | undefined): HiddenReach {
  const named = reachLine(undeclared);
  const shapes = signatureLine(undeclared);
  if (!named || !shapes) return { search: false };
  const viaSearch = search === undefined ? Number.POSITIVE_INFINITY : search + chars(`- ${named}\n`);
  return viaSearch < chars(`- ${shapes}\n`) ? { search: true, line: named } : { search: false, line: shapes };
}

/**
 * The rules a tool of a set carries: its own, or none where the person's
 * `promptLines` replace them; the first declared tool carries the rules for
 * all besides (`wait`, or the person's lines) and how the undeclared tools are reached.
 */
export function linesOf(
  tool: AnyManifest,
  carrier: boolean,
  reach: string | undefined,
  promptLines: readonly string[] | undefined,
): string[] {
  const own = promptLines ? [] : tool.promptGuidelines;
  if (!carrier) return [...own];
  return [...own, ...(promptLines ?? [WAIT_LINE]), ...(reach ? [reach] : [])];
}

/** Characters a request carries of rules, one `- rule` line each. */
export function ruleChars(rules: readonly string[]): number {
  const lines = rules.map((rule) => rule.trim()).filter(Boolean);
  return chars(lines.map((rule) => `- ${rule}\n`).join(""));
}

/** Whether a set's hidden tools are reached through tool_search, and the line that says how. */
export interface HiddenReach {
  search: boolean;
  line?: string;
}
