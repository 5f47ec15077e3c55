/** A least-recently-used map bounded by its number of entries (0: remembers nothing). */
export class Lru<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      // a Map iterates in insertion order: re-inserting makes the entry the newest
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    if (this.maxEntries === 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}
