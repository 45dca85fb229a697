/**
 * What a cache keeps once the forms that used it are gone: the most recently
 * used values, up to a number of them and up to a total weight (a size the
 * caller measures: characters, questions). A value heavier than the whole
 * budget is never kept; keeping a new value lets the least recently used go
 * until both limits hold again.
 */
export class Recent<V> {
  private readonly items = new Map<string, { value: V; weight: number }>();
  private total = 0;
  /** The key used last (the last of `items`), or undefined. */
  private latest?: string;

  constructor(
    private readonly maxItems: number,
    private readonly maxWeight: number,
  ) {}

  /** The value kept under `key`, which becomes the most recently used. */
  get(key: string): V | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    if (this.latest !== key) {
      this.items.delete(key);
      this.items.set(key, item);
      this.latest = key;
    }
    return item.value;
  }

  /** Keep `value` under `key` as the most recently used, if it fits the budget at all. */
  set(key: string, value: V, weight: number): void {
    const kept = this.items.get(key);
    // Asked for again as it is kept (the same form again): it is already the most recent.
    if (kept && kept.value === value && kept.weight === weight && this.latest === key) return;
    this.drop(key);
    if (weight > this.maxWeight) return;
    this.items.set(key, { value, weight });
    this.latest = key;
    this.total += weight;
    for (const oldest of this.items.keys()) {
      if (this.items.size <= this.maxItems && this.total <= this.maxWeight) break;
      this.drop(oldest);
    }
  }

  get size(): number {
    return this.items.size;
  }

  private drop(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    if (this.latest === key) this.latest = undefined;
    this.items.delete(key);
    this.total -= item.weight;
  }
}
