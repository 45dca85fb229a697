// What every tool's parameters share. Pi's start loads this: no check belongs here (they are the engine's).
import { Type } from "typebox";
import { declareAs } from "./lenient.js";

/** Sizes no real form needs and a hostile one would use to slow Pi down. */
export const LIMITS = {
  questions: 50,
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

/** Described once, in `question`'s description (every set declares `question`), not in every declaration. */
export const Timeout = Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.timeoutSeconds }));

export const TimeoutWithoutOptions = Type.Optional(
  Type.Integer({ minimum: 1, maximum: LIMITS.timeoutSeconds, description: "Seconds to wait for a first key" }),
);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
