// Waiting in unit tests without a DOM: `until` waits for a state with a generous bound, for what
// timers make happen on their own schedule (which a loaded machine delays).

export const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One `until` for every test (tests/support/until.ts). */
export { until } from "../support/until.ts";
