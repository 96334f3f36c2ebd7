// Client performance metrics (spec section 9): the last 100 durations of each kind of work, a
// console warning when a kind's average passes 1000 ms and a debug line for a sample over 500 ms.
// Kinds are "api GET /api/users/:id", "ack send_message" (send to the server's ack) and
// "first_load" (navigation start to the page's load event). Maintainers read the figures from
// the browser console: `__webchatPerf`.

export const SAMPLES_PER_KIND = 100;
/** Route patterns collapse ids, so this only stops a bug from growing the table without end. */
export const MAX_KINDS = 64;
export const WARN_AVERAGE_MS = 1000;
export const DEBUG_SAMPLE_MS = 500;
/** One line per kind and level at most this often, however slow things get. */
export const LOG_INTERVAL_MS = 60_000;

export interface KindSummary {
  count: number;
  averageMs: number;
  maxMs: number;
  lastMs: number;
}

interface Series {
  ring: number[];
  next: number;
  last: number;
  warnedAt: number | null;
  debuggedAt: number | null;
}

type Log = Pick<Console, "warn" | "debug">;

export function createPerf(clock: () => number = () => performance.now(), log: Log = console) {
  const series = new Map<string, Series>();

  const due = (at: number | null, now: number) => at === null || now - at >= LOG_INTERVAL_MS;

  function record(kind: string, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    let s = series.get(kind);
    if (!s) {
      if (series.size >= MAX_KINDS) return;
      s = { ring: [], next: 0, last: 0, warnedAt: null, debuggedAt: null };
      series.set(kind, s);
    }
    s.ring[s.next] = ms;
    s.next = (s.next + 1) % SAMPLES_PER_KIND;
    s.last = ms;
    const now = clock();
    const average = mean(s.ring);
    if (average > WARN_AVERAGE_MS) {
      if (!due(s.warnedAt, now)) return;
      s.warnedAt = now;
      log.warn(`[perf] ${kind}: ${Math.round(average)} ms on average over the last ${s.ring.length}`);
    } else if (ms > DEBUG_SAMPLE_MS && due(s.debuggedAt, now)) {
      s.debuggedAt = now;
      log.debug(`[perf] ${kind}: ${Math.round(ms)} ms`);
    }
  }

  /** Starts a stopwatch; calling the result records the time since. */
  function start(kind: string): () => void {
    const began = clock();
    return () => record(kind, clock() - began);
  }

  function summary(): Record<string, KindSummary> {
    const out: Record<string, KindSummary> = {};
    for (const [kind, s] of series) {
      out[kind] = { count: s.ring.length, averageMs: Math.round(mean(s.ring)), maxMs: Math.round(Math.max(...s.ring)), lastMs: Math.round(s.last) };
    }
    return out;
  }

  return { record, start, summary };
}

export type Perf = ReturnType<typeof createPerf>;

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** "GET /api/messages/42?limit=50" → "GET /api/messages/:id": one kind per route, not per person. */
export function routeKind(method: string, path: string): string {
  const route = path
    .split(/[?#]/)[0]!
    .split("/")
    .map((part) => (/^\d+$/.test(part) || /^[0-9a-f-]{16,}$/i.test(part) ? ":id" : part))
    .join("/");
  return `api ${method} ${route}`;
}

/** The page's one recorder: the API client and the realtime client record into it. */
export const perf = createPerf();

declare global {
  interface Window {
    /** The metrics summary, for maintainers in the browser console. */
    readonly __webchatPerf?: Record<string, KindSummary>;
  }
}

if (typeof window !== "undefined" && typeof performance?.getEntriesByType === "function") {
  Object.defineProperty(window, "__webchatPerf", { get: () => perf.summary(), configurable: true });
  const recordLoad = () => {
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    if (navigation && navigation.loadEventEnd > 0) perf.record("first_load", navigation.loadEventEnd);
  };
  // loadEventEnd is set only after the load handlers have returned.
  if (document.readyState === "complete") recordLoad();
  else window.addEventListener("load", () => setTimeout(recordLoad, 0), { once: true });
}
