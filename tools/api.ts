/**
 * What other extensions import from the package (`import { elicit } from
 * "pi-formchart"`): forms from a JSON Schema, with MCP elicitation's request
 * and result shapes, directly or over Pi's event bus. See docs/api.md.
 */
export type {
  ElicitContent,
  ElicitRequestInput as ElicitRequest,
  FieldValue,
  PrimitiveSchemaDefinition,
  RequestedSchema,
} from "../schemas/elicit.js";
export {
  ELICIT_CHANNEL,
  ElicitError,
  type ElicitErrorCategory,
  type ElicitEventRequest,
  type ElicitFailure,
  elicit,
} from "./elicit.js";
export type { ElicitAction, ElicitResult } from "./engine/schema-form.js";
