/**
 * A form tool's manifest: what Pi loads of it when it starts (its name and
 * prompt texts, its parameter schema, the other call shapes it folds into its
 * own, how Pi's transcript summarizes a call and a result). Pure data and
 * functions of it: the registration (tools/register.ts) and the engine
 * (tools/engine/, what the tool does once called) both read it.
 */

import { type TSchema, Type } from "typebox";
import { type Fold, prepareWith } from "../schemas/aliases.js";
import { isRecord } from "../schemas/fields.js";
import { UNDECLARED } from "../schemas/lenient.js";

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

/**
 * `wait: false`: the call returns at once and the answer arrives later as a
 * message (tools/engine/waiting.ts). Every tool takes it; the engine takes it
 * off before the tool's own check. It is accepted but not declared: one rule
 * of the first declared tool names it for all (`WAIT_LINE`, tools/loadout.ts).
 */
export const WAIT = Type.Optional(Type.Boolean({ ...UNDECLARED }));
export const WAIT_LINE = "Form tools take wait: false: ask, go on; answer comes as a message.";

/** Keep the details type of a manifest while listing it with others; its parameters take `wait`. */
export function defineManifest<Details>(manifest: ToolManifest<Details>): ToolManifest<Details> {
  const parameters = manifest.parameters as TSchema & { properties?: Record<string, TSchema> };
  return { ...manifest, parameters: { ...parameters, properties: { ...parameters.properties, wait: WAIT } } };
}

/** A manifest of any details type, as listed with the others. */
export type AnyManifest = ToolManifest<any>;

/** The arguments without `wait`, and what it said (`undefined`: not given). */
export function takeWait(raw: unknown): { raw: unknown; wait: unknown } {
  if (!isRecord(raw) || !("wait" in raw)) return { raw, wait: undefined };
  const { wait, ...rest } = raw;
  return { raw: rest, wait };
}

/**
 * The folds of a manifest as Pi's `prepareArguments`, or nothing for a tool
 * with none. `wait` belongs to the call, not to any shape: it is set aside
 * while the folds run (a fold that moves the fields it does not know into a
 * question would carry it there) and given back at the top level.
 */
export function prepareArgumentsOf(manifest: AnyManifest): ((raw: unknown) => unknown) | undefined {
  if (!manifest.folds?.length) return undefined;
  const fold = prepareWith(...manifest.folds);
  return (input) => {
    const { raw, wait } = takeWait(input);
    if (wait === undefined) return fold(input);
    const folded = fold(raw);
    return isRecord(folded) ? { ...folded, wait } : folded;
  };
}

/** What the transcript adds to an answer the timeout took: the option the model recommended. */
export const BY_TIMEOUT = " (recommended, by timeout)";

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
