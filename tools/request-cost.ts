/**
 * What a request carries of the tools a set declares, and how it reaches the
 * ones it does not. Counted as `npm run bench` counts (OpenAI chat-completions
 * shape); the end-to-end test tools-seen compares them with real requests.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { lenientSchema } from "../schemas/lenient.js";
import { type AnyManifest, WAIT_LINE } from "./manifest.js";

export const TOOL_SEARCH = "tool_search";

export interface Declaration {
  name: string;
  description: string;
  parameters: unknown;
  promptSnippet?: string;
  promptGuidelines?: readonly string[];
}

const chars = (s: string) => [...s].length;

/** Its `tools` entry, its tool-list line and its rules; Pi 0.73's entries also say `"strict": false`. */
export function requestChars(tool: Declaration, strictField = false): number {
  const { name, description, parameters } = tool;
  const fn = { name, description, parameters, ...(strictField ? { strict: false } : {}) };
  const entry = JSON.stringify({ type: "function", function: fn });
  const line = tool.promptSnippet ? `- ${name}: ${tool.promptSnippet}\n` : "";
  return chars(entry) + chars(line) + ruleChars(tool.promptGuidelines ?? []);
}

export function declarationOf(tool: AnyManifest): Declaration {
  return { ...tool, parameters: lenientSchema(tool.parameters) };
}

export function reachLine(undeclared: readonly AnyManifest[]): string | undefined {
  if (undeclared.length === 0) return undefined;
  return `Also by name or tool_search: ${undeclared.map((t) => t.name).join(", ")}.`;
}

/** `ask_form(title?, message, schema: {type, properties, required?}, timeout?)`: enough to call a hidden tool. */
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

export function searchCost(pi: ExtensionAPI, searchSnippet?: string): number | undefined {
  const search = pi.getAllTools().find((tool) => tool.name === TOOL_SEARCH);
  return search ? requestChars({ ...search, promptSnippet: searchSnippet }) : undefined;
}

/** tool_search with a line naming the hidden tools, or their call shapes: whichever costs a request less. */
export function reachOf(undeclared: readonly AnyManifest[], search: number | undefined): HiddenReach {
  const named = reachLine(undeclared);
  const shapes = signatureLine(undeclared);
  if (!named || !shapes) return { search: false };
  const viaSearch = search === undefined ? Number.POSITIVE_INFINITY : search + chars(`- ${named}\n`);
  return viaSearch < chars(`- ${shapes}\n`) ? { search: true, line: named } : { search: false, line: shapes };
}

/** The first declared tool (`carrier`) also carries the rules for all and how the hidden tools are reached. */
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

export function ruleChars(rules: readonly string[]): number {
  const lines = rules.map((rule) => rule.trim()).filter(Boolean);
  return chars(lines.map((rule) => `- ${rule}\n`).join(""));
}

export interface HiddenReach {
  search: boolean;
  line?: string;
}
