/**
 * Which tools the model sees directly: named sets a person can choose with
 * `/formchart tools` (saved in the settings).
 *
 * Contract: every tool declaration and prompt line goes into every request
 * the model gets, so the default is small. In Pi 1.x the tools outside the
 * chosen set stay registered as `deferred` (Pi's `tool_search` finds them by
 * name or purpose and declares them for the next call), so every tool stays
 * reachable; Pi 0.73 has no deferred tools, and there the set is what is
 * registered.
 */
import { TOOL_NAMES, type ToolName } from "./catalog.js";

export const TOOL_SETS = {
  /** One tool for every multiple-choice question; the others through Pi's tool search. */
  compact: ["question"],
  /** The qwizard suite: question, questionnaire, typed input, throttle, branching. */
  qwizard: ["question", "questionnaire", "question_input", "question_throttle", "question_branch"],
  /** Every tool declared. */
  all: [...TOOL_NAMES],
  /** No form tool: none declared or callable, and no prompt line. */
  none: [],
} as const satisfies Record<string, readonly ToolName[]>;

export type ToolSetName = keyof typeof TOOL_SETS;

export const DEFAULT_TOOL_SET: ToolSetName = "compact";

export function isToolSetName(name: unknown): name is ToolSetName {
  return typeof name === "string" && Object.hasOwn(TOOL_SETS, name);
}

/** The set a list of tools is, if it is one (in any order); undefined for a list of one's own. */
export function setOfTools(tools: readonly string[]): ToolSetName | undefined {
  const given = new Set(tools);
  return (Object.keys(TOOL_SETS) as ToolSetName[]).find(
    (name) => TOOL_SETS[name].length === given.size && TOOL_SETS[name].every((t) => given.has(t)),
  );
}

/**
 * Pi 1.x can register a tool without declaring it (`exposure: "deferred"`)
 * and find it later with `tool_search`; Pi 0.73 cannot. Read from the host's
 * own version, at run time.
 */
export function hostDefersTools(version: string | undefined): boolean {
  const major = Number.parseInt(version ?? "0", 10);
  return Number.isFinite(major) && major >= 1;
}
