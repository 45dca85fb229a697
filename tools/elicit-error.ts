/**
 * Why `elicit()` opened no form (its contract: tools/elicit.ts): an error
 * whose `category` says which kind of request no form can serve.
 */
import type { ErrorCategory } from "../schemas/validate.js";

export type ElicitErrorCategory = ErrorCategory | "no_ui";

/** Why `elicit()` opened no form. */
export interface ElicitFailure {
  category: ElicitErrorCategory;
  message: string;
}

export class ElicitError extends Error implements ElicitFailure {
  readonly category: ElicitErrorCategory;

  constructor(category: ElicitErrorCategory, message: string) {
    super(`${category}: ${message}`);
    this.name = "ElicitError";
    this.category = category;
  }
}
