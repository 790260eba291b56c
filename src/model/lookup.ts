/**
 * Tables looked up by strings a device chose. A plain object literal inherits `toString`,
 * `constructor` and friends, so `table["toString"]` is a function, not "unknown": a device
 * sending syncState "toString" could turn a verdict into a function. These tables have no
 * prototype, so every key a device can send is either in the table or undefined.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
