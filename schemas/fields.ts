/**
 * What every tool's parameters share: the limits, the choice option, the
 * timeouts. Declarations only: Pi's start loads this, so no check lives here
 * (the rules are schemas/rules.ts, run by the engine).
 */
import { Type } from "typebox";
import { declareAs } from "./lenient.js";

/**
 * Sizes no real form needs and a hostile one would use to slow Pi down; past
 * them the schema answers with a specific error instead of opening a form.
 */
export const LIMITS = {
  questions: 50,
  /** A day: a form left open longer is not waiting for an answer. */
  timeoutSeconds: 86_400,
  options: 10_000,
  prompt: 10_000,
  text: 10_000,
  label: 1_000,
  tabLabel: 200,
  description: 4_000,
  id: 200,
  title: 500,
  preview: 2_000,
} as const;

/** What the model reads of an option's `preview`, in every tool that takes one. */
export const PREVIEW_DESCRIPTION = "Text or code block shown beside";

export const ChoiceOption = declareAs(
  Type.Object(
    {
      label: Type.String({ minLength: 1, maxLength: LIMITS.label }),
      description: Type.Optional(Type.String({ maxLength: LIMITS.description })),
      preview: Type.Optional(Type.String({ maxLength: LIMITS.preview, description: PREVIEW_DESCRIPTION })),
      // What the form answers when nobody does before its timeout.
      recommended: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  // Every tool that takes these folds a string into `{label}` before Pi's check (tools/prepare.ts).
  {
    type: ["string", "object"],
    description: "Label, or {label, description?, preview? (text/code shown beside), recommended?}",
  },
);

/**
 * Seconds a form waits for the person's first key before it closes with the
 * recommended options. Said once, in `question`'s description (every set
 * declares `question`), not in every tool's declaration.
 */
export const Timeout = Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.timeoutSeconds }));

/** The same for a form without options: at the end it closes with what was typed, or nothing. */
export const TimeoutWithoutOptions = Type.Optional(
  Type.Integer({ minimum: 1, maximum: LIMITS.timeoutSeconds, description: "Seconds to wait for a first key" }),
);

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
