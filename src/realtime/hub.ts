// Who is connected: every open socket by user and by session, how many per client address,
// presence (several tabs are one presence; see presence.ts for the grace before "offline", and
// public-presence.ts for the batches strangers hear it in), who watches whose presence
// (presence-watch.ts), the coalesced online count (online-count.ts), and the send helpers every
// handler uses. One `disconnect` path cleans up. Frames go through the fan-out port
// (src/cluster/ports.ts): in one process straight to these sockets; with REDIS_URL also to the
// instances holding the user's other sockets. Presence is counted by the presence port likewise.
import { ONLINE_COUNT_EVERY_MS, OnlineCountTicker } from "./online-count.ts";
import { PresenceWatches } from "./presence-watch.ts";
import { PublicPresence, type BatchWindow, type Publish } from "./public-presence.ts";
import type { ClientSocket } from "./socket.ts";
import { SocketGroups } from "./socket-groups.ts";
import type { ServerEventName, ServerEvents } from "./protocol.ts";
import { localPorts } from "../cluster/local.ts";
import type { Bus, FanOut, Ports, PresencePort } from "../cluster/ports.ts";

export interface PresenceListener {
  /** Called when a user's presence flips; the listener persists it and tells whoever should hear. */
  (userId: number, online: boolean): void;
}

export interface PublicPresenceListener {
  /** One batch of presence as strangers see it: who changed, and the batch's time. */
  (changes: ReadonlyMap<number, boolean>, at: number): void;
}

export interface CloseListener {
  /** Called after a socket is gone, with whether it was its user's last one. */
  (socket: ClientSocket, lastOfUser: boolean): void;
}

export interface ExpelListener {
  /**
   * Called when a user is put out of this server (a ban, sessions ended): other transports (PeerJS)
   * close theirs, and /ws sockets still opening close with the same notice and code.
   */
  (userId: number, code: number, reason: string, notice: string | undefined): void;
}

export const encodeEvent = <K extends ServerEventName>(event: K, data: ServerEvents[K]): string =>
  JSON.stringify({ event, data });

export class Hub {
  private readonly byUser = new SocketGroups<number>();
  private readonly byAddress = new Map<string, number>();
  private readonly presenceListeners: PresenceListener[] = [];
  private readonly publicListeners: PublicPresenceListener[] = [];
  private readonly closeListeners: CloseListener[] = [];
  private readonly expelListeners: ExpelListener[] = [];
  private readonly shutdownListeners: (() => void)[] = [];
  private readonly presence: PresencePort;
  private readonly fanOut: FanOut;
  private readonly bus: Bus;
  /** Other instances may exist (Redis): frames go through the fan-out port. */
  private readonly distributed: boolean;
  /** Sockets by id, kept only when other instances may address one of them (toSocket). */
  private readonly byId: Map<string, ClientSocket> | null;
  private readonly shown: PublicPresence;
  private readonly watches = new PresenceWatches();
  private readonly onlineCount: OnlineCountTicker;

  /**
   * `presenceGraceMs`: how long a user with no present socket stays announced online;
   * `onlineCountEveryMs`: the least time between two `online_count` frames;
   * `batch`: how often strangers hear presence (none: at once).
   */
  constructor(
    presenceGraceMs = 0,
    onlineCountEveryMs = ONLINE_COUNT_EVERY_MS,
    batch: BatchWindow = { minMs: 0, maxMs: 0 },
    ports: Pick<Ports, "fanOut" | "presence" | "bus"> = localPorts(),
  ) {
    this.fanOut = ports.fanOut;
    this.distributed = ports.fanOut.distributed;
    this.bus = ports.bus;
    // A ban or ended sessions put the user out of every instance: each closes its own sockets.
    this.bus.subscribe(EXPEL_TOPIC, (data) => {
      const { userId, code, reason, notice } = data as { userId: number; code: number; reason: string; notice?: string };
      this.expelHere(userId, code, reason, notice);
    });
    this.byId = ports.fanOut.distributed ? new Map() : null;
    this.fanOut.attach({
      toUser: (userId, text) => {
        for (const socket of this.byUser.of(userId)) socket.sendText(text);
      },
      toSocket: (socketId, text) => this.localSocket(socketId)?.sendText(text),
      toAll: (text, exceptUserId, hidden) => this.broadcastHere(text, exceptUserId, hidden),
      toWatchers: (subjectId, text, except) => {
        for (const socket of this.watches.watchersOf(subjectId)) if (!except.has(socket.userId)) socket.sendText(text);
      },
    });
    this.presence = ports.presence(
      presenceGraceMs,
      (userId, online) => this.announce(userId, online),
      () => this.onlineCount.changed(),
    );
    const publish: Publish = (changes, at) => {
      for (const listener of this.publicListeners) listener(changes, at);
    };
    this.shown = new PublicPresence(batch, publish);
    if (this.distributed) this.shareShown();
    // Every instance tells its own sockets the count it sees (the presence port keeps it shared).
    this.onlineCount = new OnlineCountTicker(onlineCountEveryMs, () => this.usersOnline, (online) =>
      this.broadcastHere(encodeEvent("online_count", { online })),
    );
  }

  onPresence(listener: PresenceListener): void {
    this.presenceListeners.push(listener);
  }

  /** Batches of presence as strangers see it (public-presence.ts). */
  onPublicPresence(listener: PublicPresenceListener): void {
    this.publicListeners.push(listener);
  }

  onClose(listener: CloseListener): void {
    this.closeListeners.push(listener);
  }

  onExpel(listener: ExpelListener): void {
    this.expelListeners.push(listener);
  }

  /** Shutting down (closeAll): what runs on its own, like a retry, stops. */
  onCloseAll(listener: () => void): void {
    this.shutdownListeners.push(listener);
  }

  connect(socket: ClientSocket): void {
    this.byUser.add(socket.userId, socket);
    this.byId?.set(socket.id, socket);
    if (this.byUser.size(socket.userId) === 1) this.fanOut.holding(socket.userId, true);
    this.byAddress.set(socket.address, this.socketsAt(socket.address) + 1);
    this.presence.update(socket.userId, this.isPresentHere(socket.userId));
  }

  disconnect(socket: ClientSocket): void {
    if (!this.byUser.remove(socket.userId, socket)) return;
    this.byId?.delete(socket.id);
    const left = this.socketsAt(socket.address) - 1;
    if (left > 0) this.byAddress.set(socket.address, left);
    else this.byAddress.delete(socket.address);
    this.watches.drop(socket);
    const last = this.byUser.size(socket.userId) === 0;
    if (last) this.fanOut.holding(socket.userId, false);
    for (const listener of this.closeListeners) listener(socket, last);
    this.presence.update(socket.userId, this.isPresentHere(socket.userId));
  }

  /** `user_logout` / `user_back_online` from one tab. */
  setPresent(socket: ClientSocket, present: boolean): void {
    if (socket.present === present) return;
    socket.present = present;
    this.presence.update(socket.userId, this.isPresentHere(socket.userId));
  }

  /** `presence_watch`: this socket now hears the presence of `userIds` (replacing what it watched). */
  watch(socket: ClientSocket, userIds: readonly number[]): void {
    // A socket that closed while its frame was handled would never be dropped again.
    if (this.byUser.has(socket.userId, socket)) this.watches.set(socket, userIds);
  }

  /** Online as the people in a conversation with the user have been told: still true during the grace. */
  isOnline(userId: number): boolean {
    return this.presence.isAnnounced(userId);
  }

  /** Online as strangers have been told (and as the users row says): changes only at a batch. */
  isShown(userId: number): boolean {
    return this.shown.isShown(userId);
  }

  /**
   * Several instances: who is shown to strangers, read whole (`read`: the ids whose users row says
   * online). Start-up and after a lost subscription (lifecycle.ts); the bus keeps it current.
   */
  loadShown(read: () => Promise<readonly number[]>): Promise<void> {
    return this.shown.load(read);
  }

  /**
   * Each presence change is announced, and batched for strangers, on one instance: what it
   * publishes, and the roulette hiding and its end, go over the bus so every instance's copy
   * (`isShown`) is the same, and the instance that announces a departure knows the user was shown.
   */
  private shareShown(): void {
    const me = this.instanceId;
    const shown = this.shown;
    shown.share = {
      published: (changes) => this.bus.publish(SHOWN_TOPIC, { o: me, c: [...changes].map(([id, online]) => [id, online ? 1 : 0]) }),
      hid: (userId) => this.bus.publish(HIDE_TOPIC, { o: me, u: userId, h: 1 }),
      visitEnded: (userId) => this.bus.publish(HIDE_TOPIC, { o: me, u: userId, h: 0 }),
    };
    this.bus.subscribe(SHOWN_TOPIC, (data) => {
      const { o, c } = data as { o: string; c: [number, number][] };
      if (o !== me) shown.mirror(c.map(([id, online]) => [id, online === 1] as const));
    });
    this.bus.subscribe(HIDE_TOPIC, (data) => {
      const { o, u, h } = data as { o: string; u: number; h: number };
      if (o === me) return;
      if (h === 1) shown.hiddenElsewhere(u);
      else shown.visitEndedElsewhere(u);
    });
  }

  /** A roulette search: strangers stop seeing this user until the visit ends (public-presence.ts). */
  hideFromStrangers(userId: number): void {
    this.shown.hide(userId);
  }

  /** Publishes every pending change now, as a tick would once each is due (tests). */
  flushShown(): void {
    this.shown.flush(true);
  }

  /**
   * Has a socket open now that has not sent `user_logout`, on any instance: someone a call can
   * reach. Memory only: this instance's sockets, then the presence port's copy of who is present
   * elsewhere (kept current over Redis; none in one process).
   */
  isPresent(userId: number): boolean {
    return this.isPresentHere(userId) || (this.presence.presentAnywhere?.(userId) ?? false);
  }

  /** Has a present socket on this instance (what this instance tells the presence port). */
  isPresentHere(userId: number): boolean {
    for (const socket of this.byUser.of(userId)) if (socket.present) return true;
    return false;
  }

  /** Open sockets of everyone, and users announced online: read by /metrics when scraped. */
  get openSockets(): number {
    return this.byUser.count;
  }

  get usersOnline(): number {
    return this.presence.announcedCount;
  }

  /** Sockets with a `presence_watch` list (each at most 200 ids). */
  get watchingSockets(): number {
    return this.watches.size;
  }

  /** Open sockets from one client address (for SOCKET_CAP). */
  socketsAt(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Has at least one open socket, present or not: messages can be delivered to it. */
  isConnected(userId: number): boolean {
    return this.byUser.size(userId) > 0;
  }

  socketCount(userId: number): number {
    return this.byUser.size(userId);
  }

  socketsOf(userId: number): ClientSocket[] {
    return [...this.byUser.of(userId)];
  }

  allSockets(): ClientSocket[] {
    return [...this.byUser.all()];
  }

  send<K extends ServerEventName>(socket: ClientSocket, event: K, data: ServerEvents[K]): void {
    socket.sendText(encodeEvent(event, data));
  }

  sendToUser<K extends ServerEventName>(userId: number, event: K, data: ServerEvents[K]): void {
    this.sendTextToUser(userId, encodeEvent(event, data));
  }

  /** A frame already encoded (the message path builds its JSON once for several frames). */
  sendTextToUser(userId: number, text: string): void {
    // One process: straight to the sockets, as fast as before the ports (measured, DECISIONS issue 23).
    if (this.distributed) return this.fanOut.toUser(userId, text);
    for (const socket of this.byUser.of(userId)) socket.sendText(text);
  }

  /** One socket, on whichever instance holds it (`instanceId` from `this.instanceId` there). */
  sendToSocket<K extends ServerEventName>(instanceId: string, socketId: string, event: K, data: ServerEvents[K]): void {
    this.fanOut.toSocket(instanceId, socketId, encodeEvent(event, data));
  }

  /** This instance, as other instances address its sockets ("local" in one process). */
  get instanceId(): string {
    return this.fanOut.instanceId;
  }

  /** To every connected user except `exceptUserId` and anyone in `hidden` (kept apart by a block). */
  broadcast<K extends ServerEventName>(event: K, data: ServerEvents[K], exceptUserId?: number, hidden?: ReadonlySet<number>): void {
    if (this.distributed) return this.fanOut.toAll(encodeEvent(event, data), exceptUserId, hidden);
    this.broadcastHere(encodeEvent(event, data), exceptUserId, hidden);
  }

  private broadcastHere(text: string, exceptUserId?: number, hidden?: ReadonlySet<number>): void {
    for (const [userId, sockets] of this.byUser.entries()) {
      if (userId === exceptUserId || hidden?.has(userId)) continue;
      for (const socket of sockets) socket.sendText(text);
    }
  }

  private localSocket(socketId: string): ClientSocket | undefined {
    if (this.byId) return this.byId.get(socketId);
    for (const socket of this.byUser.all()) if (socket.id === socketId) return socket;
    return undefined;
  }

  /**
   * News about `subjectId` to every socket of `userIds` and, with `watchers`, to every socket
   * watching the subject, once each; never to the subject, nor to anyone in `hidden` (kept apart by
   * a block) or `skip` (told another way). Answers whether anyone was there to hear it, and builds
   * the data only then.
   */
  sendAbout<K extends ServerEventName>(
    subjectId: number,
    userIds: ReadonlySet<number>,
    hidden: ReadonlySet<number>,
    event: K,
    data: () => ServerEvents[K],
    { watchers = true, skip = NOBODY }: { watchers?: boolean; skip?: ReadonlySet<number> } = {},
  ): boolean {
    if (this.distributed) return this.sendAboutEverywhere(subjectId, userIds, hidden, encodeEvent(event, data()), watchers, skip);
    let text: string | null = null;
    const frame = () => (text ??= encodeEvent(event, data()));
    const left = (userId: number) => userId === subjectId || hidden.has(userId) || skip.has(userId);
    for (const userId of userIds) {
      if (left(userId)) continue;
      for (const socket of this.byUser.of(userId)) socket.sendText(frame());
    }
    if (!watchers) return text !== null;
    for (const socket of this.watches.watchersOf(subjectId)) {
      if (userIds.has(socket.userId) || left(socket.userId)) continue;
      socket.sendText(frame());
    }
    return text !== null;
  }

  /**
   * Whether sendAbout with these arguments would reach a socket of this process now (with other
   * instances: always, they are not known here). Lets a frame that needs a read (a name, on
   * PostgreSQL) skip it when nobody would hear.
   */
  hasAudience(
    subjectId: number,
    userIds: ReadonlySet<number>,
    hidden: ReadonlySet<number>,
    { watchers = true, skip = NOBODY }: { watchers?: boolean; skip?: ReadonlySet<number> } = {},
  ): boolean {
    if (this.distributed) return true;
    const left = (userId: number) => userId === subjectId || hidden.has(userId) || skip.has(userId);
    for (const userId of userIds) if (!left(userId) && this.byUser.size(userId) > 0) return true;
    if (!watchers) return false;
    for (const socket of this.watches.watchersOf(subjectId)) if (!userIds.has(socket.userId) && !left(socket.userId)) return true;
    return false;
  }

  /** sendAbout with other instances: the people through the fan-out, the watchers on every instance. */
  private sendAboutEverywhere(
    subjectId: number,
    userIds: ReadonlySet<number>,
    hidden: ReadonlySet<number>,
    text: string,
    watchers: boolean,
    skip: ReadonlySet<number>,
  ): boolean {
    const except = new Set<number>([subjectId, ...hidden, ...skip]);
    for (const userId of userIds) if (!except.has(userId)) this.fanOut.toUser(userId, text);
    if (watchers) {
      for (const userId of userIds) except.add(userId);
      this.fanOut.toWatchers(subjectId, text, except);
    }
    return true;
  }

  closeUser(userId: number, code: number, reason: string): void {
    for (const socket of this.socketsOf(userId)) socket.close(code, reason);
  }

  /**
   * Closes every socket of a user, on every instance, after `notice` (an encoded frame: a ban's),
   * and tells the other transports (PeerJS) and the sockets still opening to do the same; the
   * user is announced offline at once. Over the bus: this instance at once.
   */
  expel(userId: number, code: number, reason: string, notice?: string): void {
    this.bus.publish(EXPEL_TOPIC, { userId, code, reason, notice });
    this.presence.offlineNow(userId);
  }

  private expelHere(userId: number, code: number, reason: string, notice: string | undefined): void {
    for (const socket of this.socketsOf(userId)) {
      socket.present = false;
      if (notice !== undefined) socket.sendText(notice);
    }
    this.closeUser(userId, code, reason);
    for (const listener of this.expelListeners) listener(userId, code, reason, notice);
  }

  /** Shutting down: every socket closes and presence stops (start-up marks everyone offline). */
  closeAll(code: number, reason: string): void {
    this.presence.stop();
    this.shown.stop();
    this.onlineCount.stop();
    for (const listener of this.shutdownListeners) listener();
    for (const socket of this.allSockets()) socket.close(code, reason);
  }

  private announce(userId: number, online: boolean): void {
    this.onlineCount.changed();
    for (const listener of this.presenceListeners) listener(userId, online);
    this.shown.change(userId, online);
  }
}

const NOBODY: ReadonlySet<number> = new Set();

/** The bus topic of hub.expel. */
const EXPEL_TOPIC = "hub.expel";
/** Bus topics of the public presence copies (several instances): published batches; hides and visit ends. */
const SHOWN_TOPIC = "hub.shown";
const HIDE_TOPIC = "hub.hidden";
