/**
 * JSON Schema of `ask_rich_questions`' `details`: a `RichFormResult`, or the
 * minimal `{cancelled: true}` when no form could open. Published for
 * consumers (docs/result-contract.md) and used by the tests to check every
 * result the tool produces.
 */
import { outcomeSchema } from "./outcome.js";

const stringOrList = { type: ["string", "array"], items: { type: "string" } } as const;

const normalizedOption = {
  type: "object",
  required: ["label", "value"],
  properties: {
    label: { type: "string" },
    value: { type: "string" },
    description: { type: "string" },
    details: { type: "string" },
    note: { type: "string" },
    recommended: { type: "boolean" },
    preview: { type: "string" },
  },
} as const;

const normalizedQuestion = {
  type: "object",
  required: ["id", "type", "label", "prompt", "required", "allowOther", "options"],
  properties: {
    id: { type: "string", minLength: 1 },
    type: { enum: ["radio", "checkbox", "text"] },
    label: { type: "string" },
    prompt: { type: "string" },
    required: { type: "boolean" },
    allowOther: { type: "boolean" },
    options: { type: "array", items: normalizedOption },
    caveats: stringOrList,
  },
} as const;

const answer = {
  type: "object",
  additionalProperties: false,
  required: ["id", "type", "value", "wasCustom"],
  properties: {
    id: { type: "string" },
    type: { enum: ["radio", "checkbox", "text"] },
    value: stringOrList,
    wasCustom: { type: "boolean" },
    selectedOptionIndexes: { type: "array", items: { type: "integer", minimum: 0 } },
    customValue: { type: "string" },
    optionNotes: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["optionIndex", "value", "label", "note"],
        properties: {
          optionIndex: { type: "integer", minimum: 0 },
          value: { type: "string" },
          label: { type: "string" },
          note: { type: "string", minLength: 1 },
        },
      },
    },
  },
} as const;

export const richResultSchema = {
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["questions", "answers", "cancelled"],
      properties: {
        title: { type: "string" },
        description: { type: "string" },
        questions: { type: "array", items: normalizedQuestion },
        answers: { type: "array", items: answer },
        additionalText: { type: "string" },
        cancelled: { type: "boolean" },
        outcome: outcomeSchema,
        defaulted: { type: "array", items: { type: "string" } },
        unanswered: { type: "array", items: { type: "string" } },
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["cancelled"],
      properties: { cancelled: { const: true }, outcome: { enum: ["no_ui", "error"] }, error: { type: "string" } },
    },
  ],
} as const;
