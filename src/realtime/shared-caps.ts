// SOCKET_CAP over every instance (API.md "Several instances"). One process counts its own sockets
// exactly at the upgrade and at open (admission.ts). With several, each instance still does that
// for its own sockets, and a socket that opens also takes a slot in the limits port (one Lua step
// in Redis, per user and per client address); when the slot is refused the socket closes with 4429
// at once, so exactly the cap survives however the sockets were spread. A dead instance's slots
// come free with its heartbeat (src/cluster/lua.ts). While Redis is away the per-instance cap holds
// alone rather than refusing everyone.
import type { AppContext } from "../context.ts";
import type { ClientSocket } from "./socket.ts";

export function wireSharedCaps(ctx: AppContext): ((socket: ClientSocket) => void) | null {
  if (ctx.ports.kind === "local") return null;
  const slots = ctx.ports.limits.slots("sockets");
  const { perUser, perAddress } = ctx.config.socketCap;
  const keysOf = (socket: ClientSocket) => [`user:${socket.userId}`, `address:${socket.address}`];
  /** Sockets holding a slot, so a close gives back only what was taken. */
  const holding = new WeakSet<ClientSocket>();
  const closed = new WeakSet<ClientSocket>();
  ctx.hub.onClose((socket) => {
    if (holding.delete(socket)) slots.release(keysOf(socket));
    else closed.add(socket);
  });
  return (socket) => {
    const [user, address] = keysOf(socket) as [string, string];
    slots.acquire([
      [user, perUser],
      [address, perAddress],
    ]).then(
      (taken) => {
        if (!taken) return socket.close(4429, "Too many open connections");
        // Closed while the slot was being taken: give it back now.
        if (closed.has(socket)) return slots.release([user, address]);
        holding.add(socket);
      },
      () => {},
    );
  };
}
