/** The check of `ask_form`'s arguments: the outer shape by ajv, the schema by the subset's check (elicit.ts). */
import { AskFormParameters } from "./ask-form.js";
import { type CheckedSchema, checkRequestedSchema } from "./elicit.js";
import { type Checked, compileChecker } from "./validate.js";

const checkShape = compileChecker(AskFormParameters);

export interface CheckedAskForm {
  title?: string;
  message: string;
  form: CheckedSchema;
  timeout?: number;
}

export function checkFoldedAskForm(raw: unknown): Checked<CheckedAskForm> {
  const shape = checkShape(raw);
  if (!shape.ok) return shape;
  const form = checkRequestedSchema(shape.value.schema, "schema");
  if (!form.ok) return form;
  const value: CheckedAskForm = { message: shape.value.message, form: form.value };
  if (shape.value.title !== undefined) value.title = shape.value.title;
  if (shape.value.timeout !== undefined) value.timeout = shape.value.timeout;
  return { ok: true, value };
}
