// A per-user route budget (http/rate-limit.ts Budget: blocks, privacy, profile reads, warnings,
// ICE) counted over every instance. One process keeps today's synchronous in-memory Budget (the
// route awaits a void: no promise made); several instances take a fixed window of the limits
// port under the budget's name, so a user spreading requests over the instances behind a
// balancer still gets `limit` in all, not `limit` per instance. While Redis cannot answer, each
// instance's own Budget holds alone (as the socket cap does): these routes include blocking
// someone, which must not fail because Redis is away, and the bound per instance still holds.
import { Budget } from "../http/rate-limit.ts";
import { AppError, rateLimited } from "../http/errors.ts";
import type { Ports } from "./ports.ts";

export interface RouteBudget {
  /** Counts one request; past the limit throws 429 `rate_limited` with Retry-After. */
  take(key: number | string): void | Promise<void>;
}

export function routeBudget(ports: Pick<Ports, "kind" | "limits">, name: string, limit: number, windowMs: number): RouteBudget {
  const own = new Budget(limit, windowMs);
  if (ports.kind === "local") return own;
  const window = ports.limits.window(`budget:${name}`, limit, windowMs);
  return {
    async take(key) {
      let wait: number;
      try {
        wait = await window.take(String(key));
      } catch (error) {
        // 503 `unavailable` from the port: Redis is away.
        if (error instanceof AppError && error.status === 503) return own.take(key);
        throw error;
      }
      if (wait > 0) throw rateLimited(wait);
    },
  };
}
