/**
 * Memos of the render path: for work Ink and the view do on every row of every frame although
 * most rows are the same strings as a second ago. Bounded in entries and in a weight (the
 * characters they hold: a row of a wide terminal is a few hundred), and cleared when either is
 * full, which costs one frame of misses.
 */
export class BoundedMemo<V> {
  private readonly memo = new Map<string, V>();
  private held = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: string): V | undefined {
    return this.memo.get(key);
  }

  has(key: string): boolean {
    return this.memo.has(key);
  }

  set(key: string, value: V, weight: number): void {
    if (this.memo.size >= this.maxEntries || this.held + weight > this.maxWeight) {
      this.memo.clear();
      this.held = 0;
    }
    this.memo.set(key, value);
    this.held += weight;
  }

  /** Entries and weight held (tests). */
  usage(): { entries: number; weight: number } {
    return { entries: this.memo.size, weight: this.held };
  }
}

/**
 * A pure function of a string, remembered (weight: the key's characters); texts longer than
 * `maxLength` are not remembered (a memo key is the whole text).
 */
export function rememberText<T>(
  fn: (text: string) => T,
  size = 4096,
  maxLength = 4096,
  budget = 1 << 20,
): ((text: string) => T) & { size(): number } {
  const memo = new BoundedMemo<T>(size, budget);
  const remembered = (text: string): T => {
    if (text.length > maxLength) return fn(text);
    let value = memo.get(text);
    if (value === undefined && !memo.has(text)) {
      value = fn(text);
      memo.set(text, value, text.length);
    }
    return value as T;
  };
  return Object.assign(remembered, { size: () => memo.usage().entries });
}
