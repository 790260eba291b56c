/**
 * Names for the entries of a device's lists where outputs need one name per entry: Prometheus
 * label values (one series per source, receiver, port) and the check's perfdata labels
 * (`gnss_rx0_satellites`). The device chooses these strings and numbers, so they are bounded
 * and made unique here, in one place, deterministically (the same answer gives the same names):
 *
 * - an id is used only when it is a small non-negative whole number; anything else (1e+21, 0.5,
 *   -1, null) stands for the entry's position in the list;
 * - text is cut to a bounded length, so one long name cannot make every sample huge;
 * - a name already taken gets "#2", "#3", ... (the first keeps its name), skipping names the
 *   device itself uses, so two sources called "GPS" are two series, not one that the last wins.
 */

/** Ids above this are not ids a device gives its receivers or ports; 65535 fits any counter. */
export const MAX_LABEL_ID = 65_535;
/** Longest label value taken from device text, in code points. */
export const MAX_LABEL_TEXT = 128;

/** The id as label text when it is a small non-negative whole number, else the position. */
export function idKey(id: number | null | undefined, position: number): string {
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= MAX_LABEL_ID ? String(id) : String(position);
}

/** Device text bounded to MAX_LABEL_TEXT code points; a cut ends in "…". */
export function boundedText(text: string, max: number = MAX_LABEL_TEXT): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * One unique name per entry, in order: repeats get "#2", "#3", ... The suffix skips every
 * name in the list, so a renamed repeat never takes the name of a later entry.
 */
export function uniqueKeys(names: readonly string[]): string[] {
  const taken = new Set(names);
  const used = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let n = 2; used.has(key) || (key !== name && taken.has(key)); n++) key = `${name}#${n}`;
    used.add(key);
    return key;
  });
}
