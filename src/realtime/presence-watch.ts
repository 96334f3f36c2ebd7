// Who asked to hear whose presence: a socket's `presence_watch` list (the people its list shows).
// Each call replaces that socket's list; the socket closing drops it. Memory: at most
// PRESENCE_WATCH_MAX ids per open socket, held twice (by socket and by watched user).
import { PRESENCE_WATCH_MAX } from "./protocol.ts";
import type { ClientSocket } from "./socket.ts";

export class PresenceWatches {
  private readonly bySocket = new Map<ClientSocket, ReadonlySet<number>>();
  private readonly byWatched = new Map<number, Set<ClientSocket>>();

  /** Replaces what `socket` watches; ids past the limit are ignored, so memory stays bounded whoever calls. */
  set(socket: ClientSocket, userIds: readonly number[]): void {
    this.drop(socket);
    const ids = new Set(userIds.slice(0, PRESENCE_WATCH_MAX));
    ids.delete(socket.userId);
    if (ids.size === 0) return;
    this.bySocket.set(socket, ids);
    for (const id of ids) {
      let watchers = this.byWatched.get(id);
      if (!watchers) this.byWatched.set(id, (watchers = new Set()));
      watchers.add(socket);
    }
  }

  drop(socket: ClientSocket): void {
    const ids = this.bySocket.get(socket);
    if (!ids) return;
    this.bySocket.delete(socket);
    for (const id of ids) {
      const watchers = this.byWatched.get(id);
      if (!watchers) continue;
      watchers.delete(socket);
      if (watchers.size === 0) this.byWatched.delete(id);
    }
  }

  watchersOf(userId: number): ReadonlySet<ClientSocket> {
    return this.byWatched.get(userId) ?? NONE;
  }

  /** Sockets with a watch list now (for tests and /metrics). */
  get size(): number {
    return this.bySocket.size;
  }
}

const NONE: ReadonlySet<ClientSocket> = new Set();
