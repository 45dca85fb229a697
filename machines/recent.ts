/**
 * The most recently used values, up to a number of them and a total weight (a
 * size the caller measures). A value heavier than the whole budget is never kept.
 */
export class Recent<V> {
  private readonly items = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxItems: number,
    private readonly maxWeight: number,
  ) {}

  get(key: string): V | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    this.items.delete(key);
    this.items.set(key, item);
    return item.value;
  }

  set(key: string, value: V, weight: number): void {
    this.drop(key);
    if (weight > this.maxWeight) return;
    this.items.set(key, { value, weight });
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
    this.items.delete(key);
    this.total -= item.weight;
  }
}
