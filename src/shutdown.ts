// Stopping the HTTP server within a bounded time whatever clients do. Bun's plain stop() stops
// listening and closes idle keep-alive connections, then waits for every request in flight: an
// upload that stalls (or an answer nobody reads) held the process, port closed, for 30 s. So
// requests get a short grace to finish, then their connections are closed (stop(true)), and the
// uploads so cut off get a moment to remove their spool files (receive.ts disposes on the error).

/** How long requests in flight may still finish normally after SIGTERM. */
export const REQUEST_GRACE_MS = 1_000;
/** How long Bun may take to close the connections left, and uploads to remove their partial files (or finish storing: a picture may still be decoding). */
export const ABORT_CLEANUP_MS = 2_000;
const FORCED_STOP_MS = 500;
/** Past this the process exits whatever is still pending (code 1); the database is crash-safe (WAL). */
export const SHUTDOWN_DEADLINE_MS = 4_500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `done()` holds, or after `withinMs` (false then). */
export async function waitFor(done: () => boolean, withinMs: number, everyMs = 10): Promise<boolean> {
  const until = performance.now() + withinMs;
  while (!done()) {
    if (performance.now() >= until) return false;
    await sleep(everyMs);
  }
  return true;
}

export interface Drained {
  /** Requests still running when the grace ended, whose connections were closed. */
  cutOff: number;
  /** Whether every cut-off upload had removed its spool files before the end. */
  uploadsSettled: boolean;
}

/**
 * Stops accepting, lets requests finish for `graceMs`, then closes every connection that is left
 * (stop(true), sockets included) and waits up to `cleanupMs` for `uploadsIdle`: at most
 * graceMs + 0.5 s + cleanupMs in all.
 * `forceStop` is the app's own stop (Elysia's runs its onStop hooks too).
 */
export async function drainServer(
  server: { stop(closeActiveConnections?: boolean): Promise<void>; readonly pendingRequests: number },
  forceStop: () => Promise<unknown>,
  uploadsIdle: () => boolean,
  { graceMs = REQUEST_GRACE_MS, cleanupMs = ABORT_CLEANUP_MS } = {},
): Promise<Drained> {
  // Not awaited: it resolves only when the last request ends, which a stalled client decides.
  const stopped = server.stop(false).then(() => true);
  const finished = await Promise.race([stopped, sleep(graceMs).then(() => false)]);
  const cutOff = finished ? 0 : server.pendingRequests;
  await Promise.race([forceStop(), sleep(FORCED_STOP_MS)]);
  const uploadsSettled = await waitFor(uploadsIdle, cleanupMs);
  return { cutOff, uploadsSettled };
}
