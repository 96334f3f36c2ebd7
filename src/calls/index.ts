// Picks the calls port once at start-up (context.ts), as the other ports are picked: Redis when
// the cluster ports are Redis, else the one-process registry. The frames of the endings that no
// handler runs (the ring time, an instance's death) are wired here, once.
import type { Ports } from "../cluster/ports.ts";
import { redisCalls } from "../cluster/calls-redis.ts";
import type { Hub } from "../realtime/hub.ts";
import { LocalCalls } from "./local.ts";
import type { CallsPort } from "./port.ts";
import { knowsOf } from "./registry.ts";

/** `inRouletteHere`: searching or paired in Video Roulette on this instance (the roulette queue's socketOf). */
export function createCalls(ports: Pick<Ports, "redis" | "bus">, hub: Hub, inRouletteHere: (userId: number) => boolean): CallsPort {
  const calls = ports.redis
    ? redisCalls(ports.redis, ports.bus, {
        // Both from memory: the hub's copies are kept over Redis (hub.ts, public-presence.ts).
        presentHere: (userId) => hub.isPresent(userId),
        socketsOf: (userId) => hub.socketsOf(userId),
        shownRow: (userId) => hub.isShown(userId),
        inRouletteHere,
      })
    : new LocalCalls({
        present: (userId) => hub.isPresent(userId),
        shown: (userId) => hub.isShown(userId),
        inRoulette: inRouletteHere,
        otherTabs: (userId, socketId, text) => {
          for (const other of hub.socketsOf(userId)) if (other.id !== socketId) other.sendText(text);
        },
      });
  // Nobody answered in time: the caller hears "no answer", every ringing tab of the callee stops.
  calls.onRingOut((call) => {
    hub.sendToUser(call.callerId, "call_rejected", { reason: "no_answer" });
    if (knowsOf(call, call.receiverId)) hub.sendToUser(call.receiverId, "call_ended", {});
  });
  // The instance holding one side died: both sides hear the end (the dead side's user may already
  // be back on another instance).
  calls.onLost((call) => {
    for (const userId of [call.callerId, call.receiverId]) if (knowsOf(call, userId)) hub.sendToUser(userId, "call_ended", {});
  });
  return calls;
}

export type { CallsPort } from "./port.ts";
