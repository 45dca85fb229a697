// The types of the JSON Schema subset a form can ask for. Pi's start loads this (`elicit()`): no check here.
import type { TextFormat } from "./formats.js";

export const MAX_FIELDS = 50;

export type FieldValue = string | number | boolean | string[];
/** What an accepted form returns: one value per answered field. */
export type ElicitContent = Record<string, FieldValue>;

interface Annotated {
  title?: string;
  description?: string;
}

export type TitledChoice = { const: string; title: string };
/** Beside titled choices in an `anyOf`: any other text is an answer too (the form offers a typed answer). */
export type OpenBranch = { type: "string"; title?: string };

/** The property schemas of the subset (MCP's `PrimitiveSchemaDefinition`, plus `pattern`). */
export type PrimitiveSchemaDefinition =
  | (Annotated & {
      type: "string";
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: TextFormat;
      default?: string;
    })
  | (Annotated & { type: "number" | "integer"; minimum?: number; maximum?: number; default?: number })
  | (Annotated & { type: "boolean"; default?: boolean })
  | (Annotated & { type: "string"; enum: string[]; enumNames?: string[]; default?: string })
  | (Annotated & { type: "string"; oneOf: Array<{ const: string; title: string }>; default?: string })
  | (Annotated & { type: "string"; anyOf: Array<TitledChoice | OpenBranch>; default?: string })
  | (Annotated & {
      type: "array";
      minItems?: number;
      maxItems?: number;
      items: { type: "string"; enum: string[] } | { type?: "string"; anyOf: Array<TitledChoice | OpenBranch> };
      default?: string[];
    });

export interface RequestedSchema extends Annotated {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

export interface FieldOption {
  value: string;
  title: string;
}

export interface FieldBase {
  /** The property name: the key of the value in the content. */
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export type ElicitField =
  | (FieldBase & {
      kind: "string";
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: TextFormat;
      default?: string;
    })
  | (FieldBase & { kind: "number" | "integer"; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "choice"; options: FieldOption[]; other?: true; default?: string })
  | (FieldBase & {
      kind: "choices";
      options: FieldOption[];
      /** The schema takes other text too: the form offers typed choices. */
      other?: true;
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

/** A schema inside the subset, read into fields (in property order). */
export interface CheckedSchema {
  /** The schema as it was given: what the content is checked against. */
  schema: Record<string, unknown>;
  title?: string;
  description?: string;
  fields: ElicitField[];
}

/** MCP's form-mode request parameters (`elicitation/create`), as `elicit()` takes them. */
export interface ElicitRequestInput {
  mode?: "form";
  message: string;
  requestedSchema: RequestedSchema;
}

/** A thrown value on one short line, whatever it is. */
export function errorLine(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return "a value that cannot be shown";
  }
}
