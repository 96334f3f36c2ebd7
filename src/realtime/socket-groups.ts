// Sockets grouped by a key (a user, a session). Nearly every group holds one socket, so that one is
// stored as is and a Set is made only when a second tab opens: with tens of thousands of idle
// sockets, a Set per group was a measurable part of each socket's cost (issue 11).
import type { ClientSocket } from "./socket.ts";

type Group = ClientSocket | Set<ClientSocket>;

const NONE: readonly ClientSocket[] = [];

export class SocketGroups<K> {
  private readonly groups = new Map<K, Group>();
  private total = 0;

  add(key: K, socket: ClientSocket): void {
    const held = this.groups.get(key);
    if (held === socket || (held instanceof Set && held.has(socket))) return;
    if (held === undefined) this.groups.set(key, socket);
    else if (held instanceof Set) held.add(socket);
    else this.groups.set(key, new Set([held, socket]));
    this.total++;
  }

  /** Answers whether the socket was there. */
  remove(key: K, socket: ClientSocket): boolean {
    const held = this.groups.get(key);
    if (held === socket) this.groups.delete(key);
    else if (held instanceof Set && held.delete(socket)) {
      if (held.size === 1) this.groups.set(key, held.values().next().value!);
    } else return false;
    this.total--;
    return true;
  }

  /** The group's sockets, for iterating; nothing is copied. */
  of(key: K): Iterable<ClientSocket> {
    const held = this.groups.get(key);
    return held === undefined ? NONE : held instanceof Set ? held : [held];
  }

  has(key: K, socket: ClientSocket): boolean {
    const held = this.groups.get(key);
    return held === socket || (held instanceof Set && held.has(socket));
  }

  size(key: K): number {
    const held = this.groups.get(key);
    return held === undefined ? 0 : held instanceof Set ? held.size : 1;
  }

  /** Every socket in every group. */
  get count(): number {
    return this.total;
  }

  *keys(): IterableIterator<K> {
    yield* this.groups.keys();
  }

  *all(): IterableIterator<ClientSocket> {
    for (const held of this.groups.values()) {
      if (held instanceof Set) yield* held;
      else yield held;
    }
  }

  *entries(): IterableIterator<[K, Iterable<ClientSocket>]> {
    for (const [key, held] of this.groups) yield [key, held instanceof Set ? held : [held]];
  }
}
