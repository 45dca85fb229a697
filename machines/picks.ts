export interface Picks {
  /** In option order. */
  options: number[];
  custom: string[];
}
