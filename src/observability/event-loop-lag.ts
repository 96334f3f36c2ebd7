// Event loop lag, measured the plain way: a timer asks to run in 500 ms and records how late it
// ran. A slow query, a big JSON or a sync decode shows up here before users notice.
import type { Histogram } from "./registry.ts";

const INTERVAL_MS = 500;

/** Starts sampling into `histogram`; returns the stop function. */
export function sampleEventLoopLag(histogram: Histogram, intervalMs = INTERVAL_MS): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const schedule = () => {
    const due = performance.now() + intervalMs;
    timer = setTimeout(() => {
      histogram.observe(Math.max(0, performance.now() - due) / 1000);
      schedule();
    }, intervalMs);
    // A sampler must never keep a stopping process alive.
    timer.unref?.();
  };
  schedule();
  return () => clearTimeout(timer);
}
