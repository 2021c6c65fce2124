/**
 * RecentMap: a Map that keeps its `size` most recently used entries. A read that finds a key makes
 * it the most recently used; a write past the size drops the least recently used, handing its
 * value to `dropped` (a prepared statement to finalise, say). For the bounded caches of one
 * connection or one store (statements, statistics, followed sets, users' follows).
 */
export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(
    readonly size: number,
    private readonly dropped?: (value: V) => void,
  ) {}

  /** The value of `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` as the most recently used; past the size, the least recently used goes. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.size) {
      const [oldest, old] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.dropped?.(old);
    }
  }
}
