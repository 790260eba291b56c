/** Waiting for a condition, not for a time: tests stay correct on a busy machine. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `predicate` holds; fails naming `what` after `ms`. */
export async function until(predicate: () => boolean, what: string, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
