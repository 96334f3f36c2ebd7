// The two timers peer runs: expire messages nobody came for, and drop clients that fell silent.
import { expireQueued } from "./messages.ts";
import type { PeerOptions } from "./options.ts";
import type { PeerRegistry } from "./registry.ts";

/** Drops clients silent for the alive timeout, with anything queued for them (peer's check). */
export function dropSilent(registry: PeerRegistry, aliveTimeoutMs: number, now = Date.now()): void {
  for (const client of registry.all()) {
    if (now - client.lastPing < aliveTimeoutMs) continue;
    registry.clearQueue(client.id);
    registry.remove(client);
    client.socket.close();
  }
}

/** Starts both sweeps; the returned function stops them (on app stop). */
export function startSweeps(registry: PeerRegistry, options: PeerOptions): () => void {
  const expiry = setInterval(() => {
    const now = Date.now();
    expireQueued(registry, registry.takeExpired(now, options.expireTimeoutMs), now);
  }, options.cleanupIntervalMs);
  const alive = setInterval(() => dropSilent(registry, options.aliveTimeoutMs), options.aliveCheckIntervalMs);
  // Timers alone must not keep a process (a test run, a stopping server) alive.
  expiry.unref?.();
  alive.unref?.();
  return () => {
    clearInterval(expiry);
    clearInterval(alive);
  };
}
