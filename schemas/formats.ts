/**
 * The formats a typed answer may have, judged by ajv-formats' own "full"
 * definitions: an answer the form accepts is never refused when the result
 * is checked against the schema.
 */
import { createRequire } from "node:module";
import type { Format } from "ajv";

export const TEXT_FORMATS = ["email", "uri", "date", "date-time"] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

const require = createRequire(import.meta.url);
let formats: Record<TextFormat, Format> | undefined;

function formatDefinitions(): Record<TextFormat, Format> {
  if (!formats) {
    const { fullFormats } = require("ajv-formats/dist/formats") as typeof import("ajv-formats/dist/formats.js");
    formats = {
      email: fullFormats.email,
      uri: fullFormats.uri,
      date: fullFormats.date,
      "date-time": fullFormats["date-time"],
    };
  }
  return formats;
}

export function hasFormat(format: TextFormat, text: string): boolean {
  const definition = formatDefinitions()[format];
  if (definition instanceof RegExp) return definition.test(text);
  if (typeof definition === "function") return definition(text);
  if (typeof definition === "object" && definition !== null && "validate" in definition) {
    const validate = definition.validate;
    if (validate instanceof RegExp) return validate.test(text);
    if (typeof validate === "function") return (validate as (data: string) => boolean)(text);
  }
  throw new Error(`ajv-formats has no usable definition of the format "${format}"`);
}

/** What a person is told when an answer does not have the format. */
export const FORMAT_PROBLEMS: Record<TextFormat, string> = {
  email: "Must be an email address like name@example.com.",
  uri: "Must be an absolute URI like https://example.com/page.",
  date: "Must be a calendar date as YYYY-MM-DD.",
  "date-time": "Must be a date and time with a time zone, like 2025-11-25T14:30:00Z.",
};
