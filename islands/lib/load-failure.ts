// What a failed background load says in the console. An ended session (logout in this or another
// tab, a ban, an expired token) is expected, and the page leaves for the landing or ban page on
// its own: one plain line then, not an error with a stack for every request still in flight. So is
// a load that failed because the device is offline (the screen says "You are offline", issue 26).
import { ApiError } from "./api.ts";

export function loadFailed(what: string, error: unknown): void {
  if (error instanceof ApiError && error.status === 401) console.info(`${what}: the session has ended`);
  else if (error instanceof TypeError && typeof navigator !== "undefined" && navigator.onLine === false) console.info(`${what}: offline`);
  else console.error(what, error);
}
