// The calls port over several instances (src/calls/port.ts says what each step promises). Redis
// holds every call (calls-lua.ts); each step is one script, so one call per user, the answer and
// every ending are decided once over all instances. What each instance keeps: the ring timer of
// the calls it started (for the exact ring time; the heartbeat below rings out any call whose
// time passed, so the ring time holds when the instance that started it is gone), and which of its
// sockets is a call's tab (so a closing socket costs a round trip only when it matters).
// The heartbeat (every instance, a fifth of the instance TTL, at most 1 s) also ends the calls of
// an instance silent for the TTL, as presence lets go of its users (lua.ts `tick`): the survivor
// hears `call_ended` within TTL + one beat (about 6 s with the defaults).
// Each instance also keeps a copy of the calls one of whose tabs it holds (at most one per such
// socket), kept current by the `cev` channel: when the heartbeat finds that Redis restarted empty
// (`cepoch` changed), it writes them back (callRestore), so a hang-up still reaches the other side.
// Whether a callee is in Video Roulette is asked of the instances holding their sockets (`cr:`).
import { randomBytes } from "node:crypto";
import { unavailable } from "../http/errors.ts";
import type { ClientSocket } from "../realtime/socket.ts";
import type { CallListener, CallsPort } from "../calls/port.ts";
import type { Call } from "../calls/registry.ts";
import type { Bus, RedisLink } from "./ports.ts";
import { callScripts, type CallScriptName } from "./calls-lua.ts";

type Arg = string | number;
type Scripted = RedisLink["cmd"] & { [K in CallScriptName]: (...args: Arg[]) => Promise<unknown> };

/** What the port needs of this instance's hub and storage. */
export interface RedisCallsDeps {
  /** A present socket of the user, as this instance knows without a round trip (the hub's copy); else Redis is asked. */
  presentHere(userId: number): boolean;
  socketsOf(userId: number): ClientSocket[];
  /** Shown online to strangers (the hub's copy, kept over the bus; or a read). */
  shownRow(userId: number): boolean | Promise<boolean>;
  /** Searching or paired in Video Roulette on this instance (none: nobody). */
  inRouletteHere?(userId: number): boolean;
}

/** How long a call waits for the instances holding the callee's sockets to say whether they are in roulette. */
export const ROULETTE_ASK_MS = 500;

/** The bus topic that stops the ringing in a user's other tabs, wherever they are. */
const OTHER_TABS = "calls.other_tabs";

/** A call as the scripts answer it: HGETALL's fields and values, then "id" and the id. */
function toCall(flat: unknown): Call | undefined {
  if (!Array.isArray(flat) || flat.length === 0) return undefined;
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) f[String(flat[i])] = String(flat[i + 1]);
  return {
    id: f.id,
    callerId: Number(f.a),
    receiverId: Number(f.b),
    callerSocketId: f.as ?? "",
    callerInstance: f.ai,
    receiverSocketId: f.bs ? f.bs : null,
    receiverInstance: f.bi ? f.bi : null,
    answered: f.ans === "1",
    silent: f.sil === "1",
    away: f.away === "1",
    pushed: f.push === "1",
    callerPeerId: f.peer ? f.peer : undefined,
  };
}

/** The Redis engine, with what it keeps on this instance (tests check that it stays bounded). */
export interface RedisCallsPort extends CallsPort {
  /** Ring timers of calls started here, and sockets here that are a call's tab. */
  readonly kept: { timers: number; tabs: number };
  /** Copies of the calls one of whose tabs is here, and roulette questions waiting for answers. */
  readonly copied: { copies: number; asks: number };
}

/** A roulette question in flight: answers heard, whether one said yes, how many are expected (once the script said), the end. */
interface Ask {
  got: number;
  yes: boolean;
  expected: number;
  done(inRoulette: boolean): void;
}

/** A call one of whose tabs this instance holds, as it knows it (written back if Redis forgets it). */
interface Copy {
  call: Call;
  /** This instance holds the caller's tab / the answering tab. */
  callerHere: boolean;
  answerHere: boolean;
  /** While ringing: when it rings out (this instance's clock). */
  ringsUntil: number;
  /** Redis's epoch when this instance last wrote it: another one means Redis forgot it. */
  epoch: string;
  /** Its tab here hung up or closed while Redis could not be reached: ended at the next beat that can. */
  abandoned?: boolean;
}

/** Calls asked about in one script by the check after the subscriber comes back. */
const RECHECK_CHUNK = 500;

export function redisCalls(link: RedisLink, bus: Bus, deps: RedisCallsDeps): RedisCallsPort {
  const cmd = link.cmd as Scripted;
  for (const [name, lua] of Object.entries(callScripts)) if (!(name in cmd)) cmd.defineCommand(name, { numberOfKeys: 0, lua });
  return new RedisCalls(link, cmd, bus, deps);
}

class RedisCalls implements RedisCallsPort {
  private readonly P: string;
  private readonly instanceId: string;
  private readonly ringOutListeners: CallListener[] = [];
  private readonly ringEndListeners: CallListener[] = [];
  private readonly lostListeners: CallListener[] = [];
  /**
   * Ring timers of calls started here, by caller: a caller's new call means their last one ended
   * (one call per user), so its timer goes then if not before. At most one per caller who placed a
   * call here within the ring time, however the calls ended (here, elsewhere, or not yet known).
   */
  private readonly timers = new Map<number, { id: string; timer: ReturnType<typeof setTimeout> }>();
  /** Sockets here that are a call's tab (the caller's or the answering one) -> the call's id. At most one per socket. */
  private readonly tabs = new Map<string, string>();
  private readonly beat: ReturnType<typeof setInterval>;
  private beating = false;
  /** Calls one of whose tabs this instance holds, by id (at most one per entry of `tabs`). */
  private readonly copies = new Map<string, Copy>();
  /** Set as Redis's epoch when it has none (it started empty), by whichever step comes first: a fresh one each time. */
  private get candidate(): string {
    return randomBytes(9).toString("base64url");
  }
  /** Roulette questions sent and not all answered: nonce -> answers still awaited. Bounded by calls placed within ROULETTE_ASK_MS. */
  private readonly asks = new Map<string, Ask>();
  private asked = 0;
  private readonly askChannel: string;

  constructor(
    private readonly link: RedisLink,
    private readonly cmd: Scripted,
    private readonly bus: Bus,
    private readonly deps: RedisCallsDeps,
  ) {
    this.P = link.prefix;
    this.instanceId = link.instanceId;
    bus.subscribe(OTHER_TABS, (data) => {
      const [userId, instanceId, socketId, text] = data as [number, string, string, string];
      for (const socket of deps.socketsOf(userId)) if (instanceId !== this.instanceId || socket.id !== socketId) socket.sendText(text);
    });
    this.beat = setInterval(() => this.tick(), Math.max(50, Math.min(1000, link.instanceTtlMs / 5)));
    this.beat.unref?.();
    this.askChannel = `${this.P}cr:${this.instanceId}`;
    const events = `${this.P}cev`;
    link.sub.subscribe(this.askChannel, events).catch((error: unknown) => link.fail(error));
    link.sub.on("message", (channel: string, message: string) => {
      if (channel === events) this.heard(message);
      else if (channel === this.askChannel) this.heardAsk(message);
    });
    // The ports closed (shutdown, a test's end): nothing more to do here.
    link.cmd.once("end", () => this.stop());
    // Back after the subscriber was away (PUB/SUB is at-most-once): a call that ended meanwhile
    // was never heard of here, and its copy would stay, to be written back after a later restart.
    bus.onResync(() => void this.recheck().catch((error: unknown) => link.fail(error)));
  }

  get kept(): { timers: number; tabs: number } {
    return { timers: this.timers.size, tabs: this.tabs.size };
  }

  get copied(): { copies: number; asks: number } {
    return { copies: this.copies.size, asks: this.asks.size };
  }

  /** A call ended or was answered on some instance (`cev`): the copy here follows. */
  private heard(message: string): void {
    const id = message.slice(1);
    const copy = this.copies.get(id);
    if (!copy) return;
    if (message[0] === "e") return this.forget(copy.call);
    if (message[0] === "a" && !copy.call.answered) {
      copy.call.answered = true;
      this.forgetTimer(copy.call.callerId, id);
    }
  }

  /** What this instance kept of a call that ended: its copy, and its tabs here. */
  private forget(call: Call): void {
    this.copies.delete(call.id!);
    if (this.tabs.get(call.callerSocketId) === call.id) this.tabs.delete(call.callerSocketId);
    if (call.receiverSocketId !== null && this.tabs.get(call.receiverSocketId) === call.id) this.tabs.delete(call.receiverSocketId);
  }

  /** Forgets the copies whose call ended while `cev` could not be heard (those Redis no longer holds). */
  private async recheck(): Promise<void> {
    const asked = [...this.copies.values()].filter((copy) => !copy.abandoned).map((copy) => ({ copy, epoch: copy.epoch }));
    // A few hundred calls a question, so one script never holds Redis long.
    for (let at = 0; at < asked.length; at += RECHECK_CHUNK) {
      const chunk = asked.slice(at, at + RECHECK_CHUNK);
      const gone = new Set((await this.cmd.callsGone(this.P, ...chunk.flatMap(({ copy, epoch }) => [copy.call.id!, epoch]))) as string[]);
      for (const { copy, epoch } of chunk) {
        // Written back or abandoned since the question: the write-back decides.
        if (!gone.has(copy.call.id!) || this.copies.get(copy.call.id!) !== copy || copy.abandoned || copy.epoch !== epoch) continue;
        this.forgetTimer(copy.call.callerId, copy.call.id!);
        this.forget(copy.call);
      }
    }
  }

  /** A question from another instance ("q<nonce>|<asker>|<user>"), or an answer to one of ours ("a<nonce>|<1|0>"). */
  private heardAsk(message: string): void {
    const bar = message.indexOf("|");
    const nonce = message.slice(1, bar);
    if (message[0] === "q") {
      const [asker, user] = message.slice(bar + 1).split("|");
      const answer = this.deps.inRouletteHere?.(Number(user)) ? 1 : 0;
      this.cmd.publish(`${this.P}cr:${asker}`, `a${nonce}|${answer}`).catch((error: unknown) => this.link.fail(error));
    } else if (message[0] === "a") {
      const ask = this.asks.get(nonce);
      if (!ask) return;
      ask.yes ||= message.slice(bar + 1) === "1";
      if (++ask.got >= ask.expected) ask.done(ask.yes);
    }
  }

  /** A step that decides something for a client: Redis away answers `unavailable` (503), never 500. */
  private async run(step: Promise<unknown>): Promise<unknown> {
    try {
      return await step;
    } catch (error) {
      this.link.fail(error);
      throw unavailable();
    }
  }

  /** A ringing call stopped ringing (answered or ended): its ring timer goes, the listeners hear it. */
  private stopRinging(call: Call): void {
    this.forgetTimer(call.callerId, call.id!);
    for (const listener of this.ringEndListeners) listener(call);
  }

  /** The call a step ended, as the script answered it (before it ended): what this instance kept of it goes. */
  private ended(call: Call | undefined): Call | undefined {
    if (!call?.id) return call;
    if (!call.answered) this.stopRinging(call);
    this.copies.delete(call.id);
    if (call.callerInstance === this.instanceId && this.tabs.get(call.callerSocketId) === call.id) this.tabs.delete(call.callerSocketId);
    if (call.receiverInstance === this.instanceId && call.receiverSocketId !== null && this.tabs.get(call.receiverSocketId) === call.id) {
      this.tabs.delete(call.receiverSocketId);
    }
    return call;
  }

  async start(call: Call, ringMs: number): Promise<boolean> {
    const made = (await this.run(
      this.cmd.callStart(this.P, this.instanceId, call.callerId, call.receiverId, call.callerSocketId, ringMs, call.silent ? 1 : 0, call.callerPeerId ?? "", this.candidate, call.away ? 1 : 0),
    )) as [string, string] | null;
    if (made === null) return false;
    call.id = String(made[0]);
    call.callerInstance = this.instanceId;
    this.tabs.set(call.callerSocketId, call.id);
    this.copies.set(call.id, { call: { ...call }, callerHere: true, answerHere: false, ringsUntil: Date.now() + ringMs, epoch: String(made[1]) });
    // The exact ring time while this instance lives; the heartbeat of any instance is the backstop.
    const id = call.id;
    this.forgetTimer(call.callerId);
    const timer = setTimeout(() => {
      this.forgetTimer(call.callerId, id);
      this.cmd.callEndRinging(this.P, id).then((flat) => this.rangOut(toCall(flat)), (error: unknown) => this.link.fail(error));
    }, ringMs);
    timer.unref?.();
    this.timers.set(call.callerId, { id, timer });
    return true;
  }

  /** Clears the caller's ring timer (only the one of call `id`, when given). */
  private forgetTimer(callerId: number, id?: string): void {
    const held = this.timers.get(callerId);
    if (!held || (id !== undefined && held.id !== id)) return;
    clearTimeout(held.timer);
    this.timers.delete(callerId);
  }

  private rangOut(call: Call | undefined): void {
    if (!this.ended(call)) return;
    for (const listener of this.ringOutListeners) listener(call!);
  }

  async of(userId: number): Promise<Call | undefined> {
    return toCall(await this.run(this.cmd.callOf(this.P, userId)));
  }

  async isBusy(userId: number): Promise<boolean> {
    return (await this.run(this.cmd.exists(`${this.P}cu:${userId}`))) === 1;
  }

  async ringing(callerId: number, receiverId: number): Promise<Call | undefined> {
    const call = await this.of(receiverId);
    return call && call.callerId === callerId && call.receiverId === receiverId && !call.answered ? call : undefined;
  }

  async answer(callerId: number, receiverId: number, socketId: string): Promise<Call | undefined> {
    const flat = await this.run(this.cmd.callAnswer(this.P, this.instanceId, callerId, receiverId, socketId, this.candidate));
    const call = toCall(flat);
    if (!call) return undefined;
    const epoch = String((flat as unknown[])[(flat as unknown[]).length - 1]);
    // No longer ringing: the timer goes; this socket is now the callee's tab of the call.
    this.stopRinging(call);
    this.tabs.set(socketId, call.id!);
    const mine = this.copies.get(call.id!);
    this.copies.set(call.id!, { call: { ...call }, callerHere: mine?.callerHere ?? false, answerHere: true, ringsUntil: 0, epoch });
    return call;
  }

  async decline(callerId: number, receiverId: number): Promise<Call | undefined> {
    return this.ended(toCall(await this.run(this.cmd.callDecline(this.P, callerId, receiverId))));
  }

  async endWith(userId: number, otherId?: number): Promise<Call | undefined> {
    try {
      return this.ended(toCall(await this.run(this.cmd.callEndWith(this.P, userId, otherId ?? ""))));
    } catch (error) {
      // Redis away: a call of theirs held here ends, for both sides, once it is back.
      for (const { call } of this.copies.values()) {
        const other = call.callerId === userId ? call.receiverId : call.receiverId === userId ? call.callerId : undefined;
        if (other !== undefined && (otherId === undefined || other === otherId)) this.abandon(call.id!);
      }
      throw error;
    }
  }

  private abandon(id: string): void {
    const copy = this.copies.get(id);
    if (copy) copy.abandoned = true;
  }

  async socketClosed(userId: number, socketId: string, lastHere: boolean, endsRinging: (callerId: number) => boolean): Promise<Call | undefined> {
    const id = this.tabs.get(socketId);
    if (id !== undefined) {
      this.tabs.delete(socketId);
      let call: Call | undefined;
      try {
        call = this.ended(toCall(await this.run(this.cmd.callEndHeld(this.P, this.instanceId, socketId, id))));
      } catch (error) {
        this.abandon(id);
        throw error;
      }
      if (call) return call;
      // Gone already (ended elsewhere and not heard of yet): nothing to write back.
      if (![...this.tabs.values()].includes(id)) this.copies.delete(id);
    }
    if (!lastHere) return undefined;
    // The hub let go of the user here (hold 0) before telling us, on this same connection: the
    // script sees whether another instance still holds a socket of theirs.
    const ringing = toCall(await this.run(this.cmd.callLastGone(this.P, userId)));
    if (!ringing || !endsRinging(ringing.callerId)) return undefined;
    return this.ended(toCall(await this.run(this.cmd.callEndRinging(this.P, ringing.id!))));
  }

  rungByPush(call: Call): void {
    call.pushed = true;
    const copy = call.id ? this.copies.get(call.id) : undefined;
    if (copy) copy.call.pushed = true;
    if (call.id) this.cmd.callPushed(this.P, call.id).catch((error: unknown) => this.link.fail(error));
  }

  async tabOpened(userId: number): Promise<Call | undefined> {
    return toCall(await this.run(this.cmd.callTabOpened(this.P, userId)));
  }

  present(userId: number): boolean | Promise<boolean> {
    if (this.deps.presentHere(userId)) return true;
    return this.run(this.cmd.scard(`${this.P}pu:${userId}`)).then((n) => Number(n) > 0);
  }

  shown(userId: number): boolean | Promise<boolean> {
    const shown = this.deps.shownRow(userId);
    return shown instanceof Promise ? (this.run(shown) as Promise<boolean>) : shown;
  }

  /**
   * The other instances are asked even when the answer is known here, and every answer is awaited,
   * so the call's ack takes as long whether or not (and wherever) the callee is in roulette.
   */
  async inRoulette(userId: number): Promise<boolean> {
    const here = this.deps.inRouletteHere?.(userId) ?? false;
    return (await this.askRoulette(userId)) || here;
  }

  /** Asks the other instances holding a socket of the user; no answer within ROULETTE_ASK_MS counts as "in roulette". */
  private async askRoulette(userId: number): Promise<boolean> {
    const nonce = String(++this.asked);
    let done: (inRoulette: boolean) => void = () => {};
    const answered = new Promise<boolean>((resolve) => (done = resolve));
    const timer = setTimeout(() => done(true), ROULETTE_ASK_MS);
    // Answers may be read before the script's count (they come on the other connection).
    const ask: Ask = { got: 0, yes: false, expected: Infinity, done };
    this.asks.set(nonce, ask);
    try {
      ask.expected = Number(await this.run(this.cmd.callRouletteAsk(this.P, this.instanceId, nonce, userId)));
      if (ask.got >= ask.expected) done(ask.yes);
      return await answered;
    } finally {
      clearTimeout(timer);
      this.asks.delete(nonce);
    }
  }

  otherTabs(userId: number, socketId: string, text: string): void {
    this.bus.publish(OTHER_TABS, [userId, this.instanceId, socketId, text]);
  }

  onRingOut(listener: CallListener): void {
    this.ringOutListeners.push(listener);
  }

  onRingEnd(listener: CallListener): void {
    this.ringEndListeners.push(listener);
  }

  onLost(listener: CallListener): void {
    this.lostListeners.push(listener);
  }

  private tick(): void {
    if (this.beating) return;
    this.beating = true;
    this.cmd
      .callsTick(this.P, this.link.instanceTtlMs, this.candidate)
      .then(async (answer) => {
        const [epoch, list] = answer as [string, [string, unknown][]];
        // Redis restarted empty since a call here was written: what it forgot is written back.
        await this.restore(String(epoch)).catch((error: unknown) => this.link.fail(error));
        for (const [kind, flat] of list) {
          const call = toCall(flat);
          if (!call) continue;
          if (kind === "r") this.rangOut(call);
          else if (this.ended(call)) for (const listener of this.lostListeners) listener(call);
        }
      })
      .catch((error: unknown) => this.link.fail(error))
      .finally(() => (this.beating = false));
  }

  /** Writes back the call copies written under another epoch; one the script cannot write yet waits for the next beat. */
  private async restore(epoch: string): Promise<void> {
    for (const [id, copy] of [...this.copies]) {
      if (copy.epoch === epoch) {
        if (copy.abandoned) await this.endAbandoned(copy);
        continue;
      }
      const c = copy.call;
      const written = Number(
        await this.cmd.callRestore(
          this.P, this.instanceId, id, c.callerId, c.receiverId,
          copy.callerHere ? c.callerSocketId : "", copy.answerHere ? (c.receiverSocketId ?? "") : "",
          c.answered ? 1 : 0, c.silent ? 1 : 0, c.pushed ? 1 : 0, c.callerPeerId ?? "", Math.max(0, copy.ringsUntil - Date.now()),
          c.away ? 1 : 0,
        ),
      );
      if (written === 1) {
        copy.epoch = epoch;
        // Written back to be ended at once: the other side's instance forgets its copy too (`cev`).
        if (copy.abandoned) await this.endAbandoned(copy);
      }
      // Someone in it is in another call by now (placed before this write-back): this one is gone.
      else if (written === 0) this.forget(c);
      // -1: this instance's heartbeat has not listed it again yet (the calls heartbeat would take
      // it for dead): the next beat tries again.
    }
  }

  /**
   * A call whose tab here hung up or closed while Redis was away, as Redis holds it (again): ended
   * as the hang-up would have, and both sides hear `call_ended` (the lost listeners), once.
   */
  private async endAbandoned(copy: Copy): Promise<void> {
    const c = copy.call;
    const tab = copy.callerHere ? c.callerSocketId : c.receiverSocketId;
    const call = toCall(await this.cmd.callEndHeld(this.P, this.instanceId, tab ?? "", c.id!));
    this.forget(c);
    if (this.ended(call)) for (const listener of this.lostListeners) listener(call!);
  }

  private stop(): void {
    clearInterval(this.beat);
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.tabs.clear();
    this.copies.clear();
  }
}
