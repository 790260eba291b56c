/**
 * A pure function of a string, remembered: for functions of Ink's that run on every row of
 * every frame although most rows are the same strings as a second ago. Bounded in entries and
 * in the characters of their keys (a row of a wide terminal is a few hundred): cleared when
 * either is full (one frame of misses), and texts longer than `maxLength` are not remembered.
 */
export function rememberText<T>(
  fn: (text: string) => T,
  size = 4096,
  maxLength = 4096,
  budget = 1 << 20,
): ((text: string) => T) & { size(): number } {
  const memo = new Map<string, T>();
  let characters = 0;
  const remembered = (text: string): T => {
    if (text.length > maxLength) return fn(text);
    let value = memo.get(text);
    if (value === undefined && !memo.has(text)) {
      value = fn(text);
      if (memo.size >= size || characters + text.length > budget) {
        memo.clear();
        characters = 0;
      }
      memo.set(text, value);
      characters += text.length;
    }
    return value as T;
  };
  return Object.assign(remembered, { size: () => memo.size });
}
