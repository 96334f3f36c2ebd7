// "Contacts" are the people a user has written to (API.md "Safety", privacy). Held in memory so
// that the "people I have written to" rule and the blurred-pictures rule cost no query per
// message. Loaded once at start-up from the stored messages; every stored message adds its pair.
// Who accepts messages only from contacts is held here too, so the whole "may A reach B" check
// (typing included) never reads the database. The same pairs, taken either way round, say who has
// a conversation with whom: presence goes to them (realtime/lifecycle.ts), not to everyone.
import { eq } from "drizzle-orm";
import { messages, users } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import type { AllowFrom } from "../realtime/protocol.ts";
import type { Bus } from "../cluster/ports.ts";

export class ContactRegistry {
  /** writer → the people they have written to. */
  private readonly wroteTo = new Map<number, Set<number>>();
  /** user → everyone with a message either way (or kept in touch after roulette). */
  private readonly talkedWith = new Map<number, Set<number>>();
  /** Users whose allow_from is "contacts". */
  private readonly contactsOnly = new Set<number>();

  constructor(private readonly db: Db) {}

  /** At start-up (context.ts loadContext): every pair that has a message, and who limits to contacts. */
  async load(): Promise<void> {
    const rows = await this.db.selectDistinct({ s: messages.senderId, r: messages.receiverId }).from(messages);
    // Read from the shared database by every instance: nothing to tell the others.
    for (const row of rows) this.addHere(row.s, row.r);
    const limited = await this.db.select({ id: users.id }).from(users).where(eq(users.allowFrom, "contacts"));
    // Read again after a lost bus subscription: a setting changed back to "everyone" meanwhile goes.
    this.contactsOnly.clear();
    for (const row of limited) this.contactsOnly.add(row.id);
  }

  /** Has `writerId` ever sent a message or file to `otherId`? */
  hasWritten(writerId: number, otherId: number): boolean {
    return this.wroteTo.get(writerId)?.has(otherId) ?? false;
  }

  /** With several instances, changes go over the bus so every instance's copy hears them. */
  private bus: Bus | null = null;

  /** Several instances (src/cluster/): from now on every change is published and applied from the bus. */
  share(bus: Bus): void {
    this.bus = bus;
    bus.subscribe("contacts.add", (data) => {
      const [writerId, otherId] = data as [number, number];
      this.addHere(writerId, otherId);
    });
    bus.subscribe("contacts.allow_from", (data) => {
      const [userId, allowFrom] = data as [number, AllowFrom];
      this.allowFromHere(userId, allowFrom);
    });
    // Changes published while this instance's subscription was away are lost: read them again.
    bus.onResync(() => void this.load().catch(() => {}));
  }

  /** Called for every stored message (messages/notify.ts) and roulette's keep-in-touch. */
  add(writerId: number, otherId: number): void {
    if (!this.bus) return this.addHere(writerId, otherId);
    // Only a pair's first message is news to the other instances.
    if (!this.hasWritten(writerId, otherId)) this.bus.publish("contacts.add", [writerId, otherId]);
  }

  private addHere(writerId: number, otherId: number): void {
    link(this.wroteTo, writerId, otherId);
    link(this.talkedWith, writerId, otherId);
    link(this.talkedWith, otherId, writerId);
  }

  /** Have the two a conversation (a message either way, or kept in touch)? They know each other's presence at once. */
  talked(a: number, b: number): boolean {
    return this.talkedWith.get(a)?.has(b) ?? false;
  }

  /** Everyone with a conversation with `userId`, in either direction. */
  partnersOf(userId: number): ReadonlySet<number> {
    return this.talkedWith.get(userId) ?? NONE;
  }

  /** Kept in step with users.allow_from by the privacy route (the only place that changes it). */
  setAllowFrom(userId: number, allowFrom: AllowFrom): Promise<void> | void {
    // It refuses strangers: the change is answered once every instance applied it (as a block).
    if (this.bus) return this.bus.publishApplied("contacts.allow_from", [userId, allowFrom]).then(() => {});
    this.allowFromHere(userId, allowFrom);
  }

  private allowFromHere(userId: number, allowFrom: AllowFrom): void {
    if (allowFrom === "contacts") this.contactsOnly.add(userId);
    else this.contactsOnly.delete(userId);
  }

  /** Does `receiverId` take messages and calls from `senderId` under their privacy setting? */
  accepts(receiverId: number, senderId: number): boolean {
    return !this.contactsOnly.has(receiverId) || this.hasWritten(receiverId, senderId);
  }
}

const NONE: ReadonlySet<number> = new Set();

function link(map: Map<number, Set<number>>, from: number, to: number): void {
  let set = map.get(from);
  if (!set) map.set(from, (set = new Set()));
  set.add(to);
}
