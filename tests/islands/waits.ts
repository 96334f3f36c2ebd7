// Waiting in unit tests without a DOM: `until` waits for a state with a generous bound, for what
// timers make happen on their own schedule (which a loaded machine delays).

export const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves once `condition()` holds; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await wait(1);
  }
}
