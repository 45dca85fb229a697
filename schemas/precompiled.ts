/**
 * Validators compiled ahead of time, looked up by the JSON text of their schema.
 *
 * Run from the sources there are none: ajv compiles each schema on its first
 * check. `npm run build` replaces this module with ajv's standalone code for
 * every schema a checker is made for, so the extension Pi loads never loads
 * or runs ajv's compiler for its own tools. A schema whose text differs from
 * the one compiled (another version of TypeBox building it) finds nothing
 * here and is compiled by ajv as from the sources.
 */
import type { ValidateFunction } from "ajv";

export function precompiledValidator(_schemaJson: string): ValidateFunction | undefined {
  return undefined;
}
