/**
 * Which tools the model sees declared: the sets `/formchart tools` chooses.
 * Every declaration goes into every request, so the default is small.
 */
import { TOOL_NAMES, type ToolName } from "./catalog.js";

export const TOOL_SETS = {
  /** One tool for every multiple-choice question; the others through Pi's tool search. */
  compact: ["question"],
  qwizard: ["question", "questionnaire", "question_input", "question_throttle", "question_branch"],
  all: [...TOOL_NAMES],
  /** No form tool: none declared or callable, and no prompt line. */
  none: [],
} as const satisfies Record<string, readonly ToolName[]>;

export type ToolSetName = keyof typeof TOOL_SETS;

export const DEFAULT_TOOL_SET: ToolSetName = "compact";

export function isToolSetName(name: unknown): name is ToolSetName {
  return typeof name === "string" && Object.hasOwn(TOOL_SETS, name);
}

/** In any order; undefined for a list of one's own. */
export function setOfTools(tools: readonly string[]): ToolSetName | undefined {
  const given = new Set(tools);
  return (Object.keys(TOOL_SETS) as ToolSetName[]).find(
    (name) => TOOL_SETS[name].length === given.size && TOOL_SETS[name].every((t) => given.has(t)),
  );
}

/** Pi 1.x can register a tool without declaring it (`exposure: "deferred"`); Pi 0.73 cannot. */
export function hostDefersTools(version: string | undefined): boolean {
  const major = Number.parseInt(version ?? "0", 10);
  return Number.isFinite(major) && major >= 1;
}
