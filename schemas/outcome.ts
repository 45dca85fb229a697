/**
 * Every way a call of a form tool or `elicit()` can end: the one list behind
 * `details.outcome` on every tool and `outcome` on `elicit()`'s result.
 * What each means and reads as: tools/engine/outcome.ts.
 */
export const OUTCOMES = ["answered", "partial", "timed_out", "declined", "cancelled", "no_ui", "error"] as const;

export type Outcome = (typeof OUTCOMES)[number];

/** `outcome` as a JSON Schema, for the published result schemas. */
export const outcomeSchema = { enum: [...OUTCOMES] } as const;
