// Waiting for a state the test cannot be told of by an event (a counter in the server, a file on
// disk, a row another process writes): checks it often, and fails with `what` once a generous
// time has passed. A slow machine only makes it slower; it never passes early.
export const DEFAULT_UNTIL_MS = 10_000;

export async function until(check: () => boolean | Promise<boolean>, what: string, withinMs = DEFAULT_UNTIL_MS, everyMs = 5): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await Bun.sleep(everyMs);
  }
}

/** Lets every task already queued run (one turn of the event loop). */
export const elsewhere = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resolves once a timer of `ms` set now fires. Timers fire in the order they are due, so every
 * timer set earlier for `ms` or less has had its turn: a marker after which a timer that should
 * not have acted would have.
 */
export const afterTimers = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once Date.now() has moved past its value now: two writes after it get different times. */
export async function clockMovesOn(): Promise<void> {
  const now = Date.now();
  await until(() => Date.now() > now, "the clock moving on");
}
