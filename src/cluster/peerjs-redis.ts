// PeerJS signalling over several instances (the Redis implementation of src/peerjs/engine.ts).
// Redis holds who holds each id (and where), the caps' counts, and the queues for absent ids,
// decided in the scripts of peerjs-lua.ts; frames for a peer on another instance go to that
// instance's node channel. What stays per instance, on purpose: the sockets, HEARTBEAT and the
// silence check (the socket is here), peer's server-wide `concurrentLimit` (a per-process
// safeguard), and the frame rate (the socket-event bucket, as /ws).
// Order: every step of this node goes out on one connection, so Redis applies them in the order
// sent and a peer's frames reach another instance in that order. PUB/SUB is at most once, like
// peer over a dying socket: nothing acknowledged depends on it.
import { randomBytes } from "node:crypto";
import type { RedisLink } from "./ports.ts";
import { peerScripts, type PeerScriptName } from "./peerjs-lua.ts";
import { capText } from "../peerjs/caps.ts";
import type { ConnectParams } from "../peerjs/connection.ts";
import type { PeerEngine, PeerEngineFactory, PeerEngineSettings } from "../peerjs/engine.ts";
import { outgoing, SERVER } from "../peerjs/messages.ts";
import type { PeerOptions } from "../peerjs/options.ts";
import { ID_TAKEN_TEXT, MessageType, parseClientMessage, PeerErrorText, type PeerId, type RelayedMessage, type ServerMessage } from "../peerjs/protocol.ts";
import type { PeerClient, PeerOwner, PeerSocket } from "../peerjs/registry.ts";

type Arg = string | number;
type Scripted = RedisLink["cmd"] & { [K in PeerScriptName]: (...args: Arg[]) => Promise<unknown> };

/** A client this node holds, with the id of the claim that made it (deliveries name it). */
interface Held extends PeerClient {
  readonly epoch: string;
}

/**
 * Frames that may arrive for a claim before its own answer does (they come on the subscriber
 * connection, the answer on the command one, one round trip apart): at most this many per claim
 * and these many bytes over all claims in flight; past either they are dropped, as a live frame
 * to a dying socket may be.
 */
export const EARLY_FRAMES_MAX = 64;
export const EARLY_BYTES_MAX = 1024 * 1024;

/** Charged per queued message on top of its frame, as the local queues do (queues.ts). */
const ENTRY_OVERHEAD_BYTES = 128;

const newId = () => randomBytes(9).toString("base64url");

function send(socket: PeerSocket, message: ServerMessage): void {
  socket.send(JSON.stringify(message));
}

function refuse(socket: PeerSocket, type: typeof MessageType.ERROR | typeof MessageType.ID_TAKEN, msg: string): null {
  send(socket, { type, payload: { msg } });
  socket.close();
  return null;
}

function parse(frame: string): RelayedMessage | null {
  try {
    return JSON.parse(frame) as RelayedMessage;
  } catch {
    return null;
  }
}

/** The scripts are loaded once per connection; each app's routes then make an engine (a node). */
export function redisPeerEngine(link: RedisLink): PeerEngineFactory {
  const cmd = link.cmd as Scripted;
  for (const [name, lua] of Object.entries(peerScripts)) if (!(name in cmd)) cmd.defineCommand(name, { numberOfKeys: 0, lua });
  return (settings) => new RedisPeerEngine(link, cmd, settings);
}

class RedisPeerEngine implements PeerEngine {
  private readonly P: string;
  /** This engine in Redis: "<instance>.<n>", so two route sets in one process (tests) never share a channel. */
  private readonly node: string;
  private readonly channel: string;
  private readonly options: PeerOptions;
  private readonly here = new Map<PeerId, Held>();
  private readonly byEpoch = new Map<string, Held>();
  /** Claims in flight, with what arrived for them early (uid, frame). */
  private readonly early = new Map<string, [number, string][]>();
  private earlyBytes = 0;
  private readonly subscribed: Promise<unknown>;
  private readonly timers: ReturnType<typeof setInterval>[];
  private sweeping = false;
  private stopped = false;

  constructor(
    private readonly link: RedisLink,
    private readonly cmd: Scripted,
    private readonly settings: PeerEngineSettings,
  ) {
    this.P = link.prefix;
    this.options = settings.options;
    this.node = `${link.instanceId}.${newId()}`;
    this.channel = `${this.P}pj:${this.node}`;
    link.sub.on("message", this.heard);
    this.subscribed = link.sub.subscribe(this.channel);
    this.subscribed.catch(link.fail);
    const expiry = setInterval(() => this.sweep(), this.options.cleanupIntervalMs);
    const alive = setInterval(() => this.dropSilent(), this.options.aliveCheckIntervalMs);
    expiry.unref?.();
    alive.unref?.();
    this.timers = [expiry, alive];
  }

  async connect(socket: PeerSocket, params: ConnectParams, owner: PeerOwner): Promise<PeerClient | null> {
    const { id, token, key } = params;
    if (!id || !token || !key) return refuse(socket, MessageType.ERROR, PeerErrorText.INVALID_WS_PARAMETERS);
    if (key !== this.options.key) return refuse(socket, MessageType.ERROR, PeerErrorText.INVALID_KEY);
    const mine = this.here.get(id);
    if (mine) {
      // The same browser reconnecting here: peer swaps the socket and sends no OPEN (connection.ts).
      if (token !== mine.token || owner.userId !== mine.owner.userId) return refuse(socket, MessageType.ID_TAKEN, ID_TAKEN_TEXT);
      mine.socket = socket;
      return mine;
    }
    if (this.here.size + this.early.size >= this.options.concurrentLimit) return refuse(socket, MessageType.ERROR, PeerErrorText.CONNECTION_LIMIT_EXCEED);
    await this.subscribed;
    const epoch = newId();
    this.early.set(epoch, []);
    let answer: string[];
    try {
      const { maxPeersPerSession, maxPeersPerUser, maxPeersPerAddress } = this.options;
      answer = (await this.cmd.pjClaim(this.P, this.node, epoch, id, token, owner.userId, owner.sessionId, owner.address, maxPeersPerSession, maxPeersPerUser, maxPeersPerAddress, this.link.instanceTtlMs)) as string[];
    } catch (error) {
      for (const [, frame] of this.early.get(epoch) ?? []) this.earlyBytes -= frame.length;
      this.early.delete(epoch);
      this.link.fail(error);
      throw error;
    }
    const [result, ...queued] = answer;
    const early = this.early.get(epoch) ?? [];
    this.early.delete(epoch);
    for (const [, frame] of early) this.earlyBytes -= frame.length;
    if (result === "taken") return refuse(socket, MessageType.ID_TAKEN, ID_TAKEN_TEXT);
    if (result === "session") return refuse(socket, MessageType.ERROR, capText.session(this.options.maxPeersPerSession));
    if (result === "user") return refuse(socket, MessageType.ERROR, capText.user(this.options.maxPeersPerUser));
    if (result === "address") return refuse(socket, MessageType.ERROR, capText.address(this.options.maxPeersPerAddress));
    const client: Held = { id, token, owner, socket, lastPing: Date.now(), epoch };
    this.here.set(id, client);
    this.byEpoch.set(epoch, client);
    if (result === "open") send(socket, { type: MessageType.OPEN });
    // What waited for the id, in order, then what arrived while the claim was answered.
    for (let i = 0; i + 1 < queued.length; i += 2) this.hand(client, queued[i + 1]!, Number(queued[i]));
    for (const [userId, frame] of early) this.hand(client, frame, userId);
    return client;
  }

  frame(client: PeerClient, frame: unknown): void {
    const message = parseClientMessage(frame);
    if (!message) return;
    if (message.type === MessageType.HEARTBEAT) {
      client.lastPing = Date.now();
      return;
    }
    const built = outgoing(this.settings.relayOnly, client, message);
    if (built) this.relay(built, client.owner.userId);
  }

  closed(client: PeerClient, socket: PeerSocket): void {
    if (client.socket === socket) this.drop(client as Held, false);
  }

  freshId(): PeerId {
    // A UUID: a clash with an id held on another instance is as likely as any two UUIDs meeting.
    let id = crypto.randomUUID();
    while (this.here.has(id)) id = crypto.randomUUID();
    return id;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.link.sub.off("message", this.heard);
    this.link.sub.unsubscribe(this.channel).catch(() => {});
    this.cmd.pjReleaseNode(this.P, this.node).catch(() => {});
    this.here.clear();
    this.byEpoch.clear();
    this.early.clear();
    this.earlyBytes = 0;
  }

  /** relay() of messages.ts, with the destination found here or through Redis. */
  private relay(message: RelayedMessage, userId: number): void {
    const { type, src, dst } = message;
    if (dst === undefined) {
      // A LEAVE addressed to nobody is the client saying goodbye: its id is free at once.
      if (type === MessageType.LEAVE) {
        const sender = this.here.get(src);
        if (sender) this.drop(sender, false);
      }
      return;
    }
    const target = this.here.get(dst);
    if (target) return this.hand(target, JSON.stringify(message), userId);
    this.route(message, userId, "r");
  }

  /** A frame for a client held here, from `userId`. */
  private hand(client: Held, frame: string, userId: number): void {
    const message = () => parse(frame);
    // Gone since (closed, taken over), or kept apart from the sender by a block (issue 18): as
    // for an id nobody holds, the message waits in its queue and expires there.
    if (this.byEpoch.get(client.epoch) !== client || this.settings.apart(userId, client.owner.userId)) {
      const m = message();
      if (m) this.route(m, userId, "q");
      return;
    }
    if (client.socket.send(frame)) return;
    // As in one process: forgotten at once (so a LEAVE does not bounce between two dead
    // sockets), closed, and the sender told it left.
    this.drop(client, false);
    client.socket.close();
    const m = message();
    if (m?.dst !== undefined) this.relay({ type: MessageType.LEAVE, src: m.dst, dst: m.src }, userId);
  }

  /** Through Redis: to the node holding `dst` (mode "r"), or into its queue, within the bounds. */
  private route(message: RelayedMessage, userId: number, mode: "r" | "q"): void {
    const { type, src, dst } = message;
    if (dst === undefined || this.stopped) return;
    const frame = JSON.stringify(message);
    const queueable = type !== MessageType.LEAVE && type !== MessageType.EXPIRE ? 1 : 0;
    const { maxQueuedPerPeer, maxQueuedBytesPerUser, maxQueuedBytes } = this.options;
    this.cmd
      .pjRoute(this.P, dst, userId, queueable, frame, frame.length + ENTRY_OVERHEAD_BYTES, maxQueuedPerPeer, maxQueuedBytesPerUser, maxQueuedBytes, this.link.instanceTtlMs, mode)
      .then((answer) => {
        // The holder's instance died: as a send that failed, the sender is told it left.
        if (answer === "gone") this.relay({ type: MessageType.LEAVE, src: dst, dst: src }, userId);
        // A bound refused it: answered EXPIRE at once, as if it had waited in vain.
        else if (answer === "full") this.relay({ type: MessageType.EXPIRE, src: dst, dst: src }, userId);
      })
      .catch(this.link.fail);
  }

  /** Forgets the client here and lets go of its id in Redis (if this claim still holds it). */
  private drop(client: Held, dropQueue: boolean): void {
    if (this.byEpoch.get(client.epoch) === client) this.byEpoch.delete(client.epoch);
    if (this.here.get(client.id) !== client) return;
    this.here.delete(client.id);
    if (!this.stopped) this.cmd.pjRelease(this.P, client.id, client.epoch, dropQueue ? 1 : 0).catch(this.link.fail);
  }

  /** What the node channel brings: frames for a claim, or news that a claim's id moved elsewhere. */
  private readonly heard = (channel: string, text: string): void => {
    if (channel !== this.channel) return;
    if (text[0] === "m") {
      const client = this.byEpoch.get(text.slice(1));
      if (!client) return;
      // Taken over with its token on another instance: the old socket stays open and speaks for
      // the id as in peer, but frames for the id go to the new one.
      this.byEpoch.delete(client.epoch);
      if (this.here.get(client.id) === client) this.here.delete(client.id);
      return;
    }
    if (text[0] !== "d") return;
    const bar = text.indexOf("|");
    const bar2 = text.indexOf("|", bar + 1);
    const epoch = text.slice(1, bar);
    const userId = Number(text.slice(bar + 1, bar2));
    const frame = text.slice(bar2 + 1);
    const client = this.byEpoch.get(epoch);
    if (client) return this.hand(client, frame, userId);
    const early = this.early.get(epoch);
    if (early) {
      if (early.length >= EARLY_FRAMES_MAX || this.earlyBytes + frame.length > EARLY_BYTES_MAX) return;
      early.push([userId, frame]);
      this.earlyBytes += frame.length;
      return;
    }
    // Its client is gone from here since: the message waits as for an absent id.
    const message = parse(frame);
    if (message) this.route(message, userId, "q");
  };

  /** Peer's cleanup: expired queues answered EXPIRE; also reaps dead nodes and notices being reaped. */
  private sweep(): void {
    if (this.sweeping || this.stopped) return;
    this.sweeping = true;
    this.cmd
      .pjSweep(this.P, this.node, this.link.instanceTtlMs, this.options.expireTimeoutMs, this.here.size > 0 ? 1 : 0)
      .then((answer) => {
        const [unlisted, ...frames] = answer as [number, ...string[]];
        if (unlisted === 1) this.restore();
        // One EXPIRE per sender and destination, as expireQueued in messages.ts.
        const seen = new Set<string>();
        for (const frame of frames) {
          const message = parse(frame);
          if (!message || message.dst === undefined) continue;
          const pair = `${message.src}\u0000${message.dst}`;
          if (seen.has(pair)) continue;
          seen.add(pair);
          this.relay({ type: MessageType.EXPIRE, src: message.dst, dst: message.src }, SERVER);
        }
      })
      .catch(this.link.fail)
      .finally(() => (this.sweeping = false));
  }

  /** Reaped while alive (a stall past the TTL) or Redis restarted empty: say again what this node holds. */
  private restore(): void {
    const clients = [...this.here.values()];
    const flat = clients.flatMap((c) => [c.id, c.epoch, c.token, c.owner.userId, c.owner.sessionId, c.owner.address]);
    this.cmd
      .pjRestore(this.P, this.node, ...flat)
      .then((lost) => {
        // Someone else took the id meanwhile: this socket no longer speaks for it.
        for (const id of lost as string[]) {
          const client = this.here.get(id);
          if (!client) continue;
          this.here.delete(id);
          this.byEpoch.delete(client.epoch);
          client.socket.close();
        }
      })
      .catch(this.link.fail);
  }

  /** Peer's alive check: a client silent past the timeout is dropped with what waits for it. */
  private dropSilent(): void {
    const now = Date.now();
    for (const client of this.here.values()) {
      if (now - client.lastPing < this.options.aliveTimeoutMs) continue;
      this.drop(client, true);
      client.socket.close();
    }
  }
}
