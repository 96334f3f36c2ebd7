// Work that one instance at a time should do (the session sweep, report retention): it runs while
// this instance holds the lease, and stops when the lease is lost. The holder renews it every third
// of its time; when it dies or stalls, another instance takes over once the lease has run out.
// With one process the lease is always held, so the work simply runs.
import type { Lease } from "./ports.ts";

/** `start` begins the work and answers the function that stops it. Answers the function that stops all. */
export function whileLeader(lease: Lease, ttlMs: number, start: () => () => void, onError: (error: unknown) => void = () => {}): () => void {
  let stopWork: (() => void) | null = null;
  let stopped = false;
  const check = async () => {
    let held = false;
    try {
      held = await lease.hold();
    } catch (error) {
      onError(error); // Redis away: whoever runs the work keeps running it until the lease is known lost
      return;
    }
    if (stopped) return;
    if (held && !stopWork) stopWork = start();
    if (!held && stopWork) {
      stopWork();
      stopWork = null;
    }
  };
  void check();
  const timer = setInterval(() => void check(), Math.max(50, Math.floor(ttlMs / 3)));
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
    stopWork?.();
    stopWork = null;
    lease.release().catch(() => {});
  };
}
