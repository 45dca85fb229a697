import type { ErrorCategory } from "../schemas/validate.js";

export type ElicitErrorCategory = ErrorCategory | "no_ui";

/** Why `elicit()` opened no form. */
export interface ElicitFailure {
  category: ElicitErrorCategory;
  message: string;
}

export class ElicitError extends Error implements ElicitFailure {
  readonly category: ElicitErrorCategory;
  /** How the call ended, in the words of every tool's `outcome` (schemas/outcome.ts). */
  readonly outcome: "no_ui" | "error";

  constructor(category: ElicitErrorCategory, message: string) {
    super(`${category}: ${message}`);
    this.name = "ElicitError";
    this.category = category;
    this.outcome = category === "no_ui" ? "no_ui" : "error";
  }
}
