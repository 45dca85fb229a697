/**
 * A form tool's manifest: what Pi loads of it at start. Pure data and
 * functions of it, read by the registration and by the engine.
 */

import { type TSchema, Type } from "typebox";
import { type Fold, prepareWith } from "../schemas/aliases.js";
import { isRecord } from "../schemas/fields.js";
import { UNDECLARED } from "../schemas/lenient.js";

export type ResultSummary =
  | { kind: "error" }
  | {
      kind: "answers";
      cancelled: boolean;
      declined?: boolean;
      answers: Array<{ label: string; value: string }>;
    };

export interface ToolManifest<Details = unknown, Name extends string = string> {
  name: Name;
  label: string;
  description: string;
  promptSnippet: string;
  promptGuidelines: string[];
  /** The full schema; Pi is given a lenient copy, ajv checks this one once called. */
  parameters: TSchema;
  /** Other call shapes, folded once per call: by Pi, or by the engine for a call not through Pi. */
  folds?: readonly Fold[];
  /** The arguments may be partial while streaming, or invalid. */
  callSummary(args: unknown): string;
  resultSummary(details: Details): ResultSummary;
}

/** Accepted by every tool but not declared: `WAIT_LINE`, carried by the first declared tool, names it for all. */
export const WAIT = Type.Optional(Type.Boolean({ ...UNDECLARED }));
export const WAIT_LINE = "Form tools take wait: false: ask, go on; answer comes as a message.";

/** A manifest with its name's literal type and its details type (from `resultSummary`); its parameters take `wait`. */
export function defineManifest<const Name extends string, Details>(
  manifest: ToolManifest<Details, Name>,
): ToolManifest<Details, Name> {
  const parameters = manifest.parameters as TSchema & { properties?: Record<string, TSchema> };
  return { ...manifest, parameters: { ...parameters, properties: { ...parameters.properties, wait: WAIT } } };
}

export type AnyManifest = ToolManifest<any>;

export function takeWait(raw: unknown): { raw: unknown; wait: unknown } {
  if (!isRecord(raw) || !("wait" in raw)) return { raw, wait: undefined };
  const { wait, ...rest } = raw;
  return { raw: rest, wait };
}

/** `wait` is set aside while the folds run: a fold moving unknown fields into a question would carry it there. */
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

export const BY_TIMEOUT = " (recommended, by timeout)";

function optionNote(item: { options?: unknown; type?: unknown }): string {
  if (item.type === "yes_no") return " (Yes/No)";
  if (item.type === "rating") return " (rating 1-5)";
  if (Array.isArray(item.options)) return ` (${item.options.length} option${item.options.length === 1 ? "" : "s"})`;
  if (item.type === "number" || item.type === "email" || item.type === "date") return ` (${item.type})`;
  return "";
}

/** `2 questions (Scope, Checks)`, `Which database? (3 options)`, `Ship it? (Yes/No)`, for every call shape, as written. */
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
