// The metrics /metrics serves. Counters on hot paths are plain increments of objects made here
// once; what the hub and the roulette queue already hold is read only when someone scrapes.
import { MetricsRegistry } from "./registry.ts";

/** What the scrape reads from the in-memory registries (hub.ts, roulette/queue.ts). */
export interface LiveState {
  hub: { readonly openSockets: number; readonly usersOnline: number };
  roulette: { readonly waitingCount: number; readonly pairsFormed: number };
}

/** 1 ms to 1 s: an ack slower than a second is broken whatever the exact figure. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

export function createMetrics(state: LiveState) {
  const registry = new MetricsRegistry();
  const uploads = registry.labelledCounter("webchat_uploads_total", "Files stored: chat pictures, other chat files, voice messages, avatars.", ["kind"]);
  const refusals = registry.labelledCounter(
    "webchat_rate_limit_refusals_total",
    "Requests and socket frames refused by a rate limit. HTTP: every 429, labelled by route; socket: frames past the user's event budget.",
    ["scope", "limiter"],
  );
  const metrics = {
    registry,
    messagesStored: registry.counter("webchat_messages_stored_total", "Chat messages written to the database (text and files); rate() gives messages a second."),
    messageAck: registry.histogram("webchat_message_ack_seconds", "From a send_message frame arriving to its ack being sent.", LATENCY_BUCKETS),
    uploads: { image: uploads.child({ kind: "image" }), file: uploads.child({ kind: "file" }), voice: uploads.child({ kind: "voice" }), avatar: uploads.child({ kind: "avatar" }) },
    refusals,
    socketRefusals: {
      ws: refusals.child({ scope: "socket", limiter: "ws_frames" }),
      peerjs: refusals.child({ scope: "socket", limiter: "peerjs_frames" }),
    },
    eventLoopLag: registry.histogram("webchat_event_loop_lag_seconds", "How late a 500 ms timer fires: time the event loop was busy with something else.", LATENCY_BUCKETS),
  };
  registry.collect("webchat_sockets_open", "Open /ws sockets.", "gauge", () => state.hub.openSockets);
  registry.collect("webchat_users_online", "Users announced online (several tabs are one user).", "gauge", () => state.hub.usersOnline);
  registry.collect("webchat_roulette_waiting", "Users waiting for a roulette partner.", "gauge", () => state.roulette.waitingCount);
  registry.collect("webchat_roulette_pairs_total", "Roulette pairings made.", "counter", () => state.roulette.pairsFormed);
  registry.collect("process_resident_memory_bytes", "Resident memory of the process.", "gauge", () => process.memoryUsage.rss());
  registry.collect("webchat_heap_used_bytes", "JavaScript heap in use.", "gauge", () => process.memoryUsage().heapUsed);
  registry.collect("webchat_heap_total_bytes", "JavaScript heap reserved.", "gauge", () => process.memoryUsage().heapTotal);
  return metrics;
}

export type AppMetrics = ReturnType<typeof createMetrics>;
