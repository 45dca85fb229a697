/** What a person has chosen in one question: the form model's unit of an answer. */
export interface Picks {
  /** Zero-based indexes of chosen predefined options, in option order. */
  options: number[];
  /** Typed answers: at most one for single-select, any number for multi-select. */
  custom: string[];
}
