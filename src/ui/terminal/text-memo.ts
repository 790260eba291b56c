/**
 * A pure function of a string, remembered: for functions of Ink's that run on every row of
 * every frame although most rows are the same strings as a second ago. Bounded: cleared when
 * full (one frame of misses), and texts longer than `maxLength` are not remembered (a memo key
 * is the whole text).
 */
export function rememberText<T>(fn: (text: string) => T, size = 4096, maxLength = 4096): ((text: string) => T) & { size(): number } {
  const memo = new Map<string, T>();
  const remembered = (text: string): T => {
    if (text.length > maxLength) return fn(text);
    let value = memo.get(text);
    if (value === undefined && !memo.has(text)) {
      value = fn(text);
      if (memo.size >= size) memo.clear();
      memo.set(text, value);
    }
    return value as T;
  };
  return Object.assign(remembered, { size: () => memo.size });
}
