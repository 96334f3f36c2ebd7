// The unread counters (spec section 4): the Chats tab's badge and each person's badge. They change
// here (a message arrives, a chat is read) and on the server, and an answer about them can leave
// before a local change and arrive after it (a slow phone). So requests are stamped as they leave
// and local changes as they happen, on one clock: an answer sets a person's count only if nothing
// newer is known about that person, and while a chat is being marked read no answer touches it.
// An answer refused for a local change owes a fresh request; once it arrives, every count is the
// server's again. The total is always the sum of the per-person counts, so badges never disagree.
import { batch } from "@preact/signals-react";
import type { ChatStore } from "./store.ts";

/** What is known about one person's count beyond the newest complete answer. */
interface Known {
  at: number;
  /** Changed here rather than told by the server. */
  local: boolean;
}

export class UnreadCounters {
  private clock = 0;
  /** Stamp of the newest complete answer applied: it speaks for everyone without a newer entry. */
  private completeAt = 0;
  /** Only people known more recently than `completeAt`: bounded by the people changed since. */
  private readonly known = new Map<number, Known>();
  /** Mark-reads in flight, per person: their count is ours until the server has it. */
  private readonly reading = new Map<number, number>();
  private owed = false;

  constructor(private readonly store: ChatStore) {}

  /** Take as a request for counters leaves; give it back with the answer. */
  stamp(): number {
    return ++this.clock;
  }

  /** One more unread message from `senderId`. */
  add(senderId: number): void {
    this.changed(senderId);
    const counts = this.store.unreadByUser.value;
    this.publish({ ...counts, [senderId]: (counts[senderId] ?? 0) + 1 });
  }

  /** Reading the chat with `senderId` starts: zero now, and no answer may undo it before `endRead`. */
  beginRead(senderId: number): void {
    this.reading.set(senderId, (this.reading.get(senderId) ?? 0) + 1);
    this.changed(senderId);
    if (!this.store.unreadByUser.value[senderId]) return;
    const counts = { ...this.store.unreadByUser.value };
    delete counts[senderId];
    this.publish(counts);
  }

  /** The server has the read (or refused it): answers that left before now are still refused. */
  endRead(senderId: number): void {
    const left = (this.reading.get(senderId) ?? 1) - 1;
    if (left > 0) this.reading.set(senderId, left);
    else this.reading.delete(senderId);
    this.changed(senderId);
  }

  /** True when an answer was refused for a local change and a new request would now be believed. */
  get refreshOwed(): boolean {
    return this.owed && this.reading.size === 0;
  }

  /**
   * An answer that left at `stamp`. `complete`: it names everyone with unread messages (absent
   * means zero); otherwise it speaks only for the people it names. Answers whether every count in
   * it was taken.
   */
  applyServer(counts: Record<number, number>, stamp: number, complete: boolean): boolean {
    const next = { ...this.store.unreadByUser.value };
    const people = complete ? new Set([...Object.keys(next).map(Number), ...Object.keys(counts).map(Number)]) : Object.keys(counts).map(Number);
    let refused = false;
    for (const id of people) {
      const entry = this.known.get(id);
      const newer = this.reading.has(id) || (entry ? entry.at : this.completeAt) > stamp;
      if (newer) {
        if (this.reading.has(id) || entry?.local) refused = true;
        continue;
      }
      const count = counts[id] ?? 0;
      if (count > 0) next[id] = count;
      else delete next[id];
      if (!complete) this.known.set(id, { at: stamp, local: false });
    }
    if (complete && stamp > this.completeAt) {
      this.completeAt = stamp;
      for (const [id, entry] of this.known) if (entry.at < stamp) this.known.delete(id);
    }
    if (refused) this.owed = true;
    else if (complete) this.owed = false;
    this.publish(next);
    return !refused;
  }

  private changed(senderId: number): void {
    this.known.set(senderId, { at: ++this.clock, local: true });
  }

  private publish(counts: Record<number, number>): void {
    const { store } = this;
    batch(() => {
      store.unreadByUser.value = counts;
      store.unreadTotal.value = Object.values(counts).reduce((sum, n) => sum + n, 0);
      // The chat list carries a count too (the server sends it with the list): keep it the same.
      if (store.chats.value.some((c) => (c.unread_count ?? 0) !== (counts[c.id] ?? 0))) {
        store.chats.value = store.chats.value.map((c) => ((c.unread_count ?? 0) === (counts[c.id] ?? 0) ? c : { ...c, unread_count: counts[c.id] ?? 0 }));
      }
    });
  }
}
