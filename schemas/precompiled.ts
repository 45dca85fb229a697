/**
 * Validators compiled ahead of time, by their schema's JSON text: none from
 * the sources; `npm run build` puts ajv's standalone code here. A schema whose
 * text differs (another TypeBox built it) is compiled by ajv at run time.
 */
import type { ValidateFunction } from "ajv";

export function precompiledValidator(_schemaJson: string): ValidateFunction | undefined {
  return undefined;
}
