// Telling people who have no tab open (issue 26): a message or a ringing call becomes one push to
// each of their subscribed devices, and a call that stops ringing closes its notification.
// Who wrote, never what, unless the device chose previews. A block or the receiver's privacy
// setting stops a push as it stops the message. Each person's devices get at most
// PUSH_RATE_LIMIT pushes a minute; sends run at most SEND_CONCURRENCY at once from a queue of at
// most QUEUE_LIMIT (past it a push is dropped and logged), so a flood costs bounded memory.
import { eq } from "drizzle-orm";
import webpush from "web-push";
import { users, type MessageRow, type PushSubscriptionRow, type UserRow } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { WindowCounter } from "../http/rate-limit.ts";
import { translator, type T } from "../i18n/catalogue.ts";
import { DEFAULT_LOCALE, isLocale } from "../i18n/locales.ts";
import type { Logger } from "../observability/log.ts";
import { errorFields } from "../observability/log.ts";
import { checkEndpoint } from "./endpoint.ts";
import type { PushSettings } from "./settings.ts";
import { dropSubscription, subscriptionsOf } from "./store.ts";
import { httpsTransport, RefusedAddress, type PushTransport } from "./transport.ts";

export const SEND_CONCURRENCY = 16;
export const QUEUE_LIMIT = 1000;
/** Characters of a message shown in a preview. */
export const PREVIEW_CHARS = 120;
/** A message waits at the push service this long for a device that is off (seconds). */
const MESSAGE_TTL = 24 * 60 * 60;

/** What the service worker receives (islands/sw/push.ts shows it). */
export type PushPayload =
  | { type: "message"; tag: string; chatId: number; title: string; body: string; url: string }
  | { type: "call"; tag: string; chatId: number; title: string; body: string; url: string }
  | { type: "call_ended"; tag: string };

export interface PushGates {
  /** Does the person have a socket open here (then the page itself tells them)? */
  isConnected(userId: number): boolean;
  /** ... or on another instance (the instance that stored the message is the one that pushes). */
  connectedElsewhere(userId: number): Promise<boolean>;
  /** A block either way, or the receiver's "contacts only": no push, as no message. */
  refused(senderId: number, receiverId: number): boolean;
}

interface Job {
  sub: PushSubscriptionRow;
  payload: PushPayload;
  ttl: number;
  topic?: string;
}

/**
 * A push's words are in the receiver's account language (Settings → Language): a push has no
 * request, so no cookie or Accept-Language to go by; without one it is English.
 */
async function receiverWords(db: Db, userId: number): Promise<T> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
  return translator(isLocale(row?.locale) ? row.locale : DEFAULT_LOCALE);
}

/** A call that may ring by push: the receiver's devices and the words of their language. */
export interface PushRing {
  receiverId: number;
  subs: PushSubscriptionRow[];
  t: T;
}

export const chatUrl = (partnerId: number) => `/?chat=${partnerId}`;
const callTag = (callerId: number) => `call-${callerId}`;

export function previewOf(row: Pick<MessageRow, "content" | "messageType" | "fileName">, t: T = translator(DEFAULT_LOCALE)): string {
  if (row.messageType === "image") return t("push.photo");
  if (row.messageType === "file") return t("push.file", { name: (row.fileName ?? "").slice(0, PREVIEW_CHARS) });
  if (row.messageType === "voice") return t("push.voice");
  const text = row.content.replace(/\s+/g, " ").trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

export class PushService {
  private readonly rate: WindowCounter;
  private readonly queue: Job[] = [];
  private running = 0;
  private readonly transport: PushTransport;
  private readonly idleWaiters: (() => void)[] = [];
  /** Messages whose push waits on another instance's answer (idle() waits for them too). */
  private deciding = 0;

  constructor(
    private readonly db: Db,
    private readonly settings: PushSettings,
    private readonly gates: PushGates,
    private readonly log: Logger,
    transport?: PushTransport,
  ) {
    this.rate = new WindowCounter(settings.perUserPerMinute, 60_000);
    this.transport = transport ?? httpsTransport({ timeoutMs: settings.timeoutMs, ca: settings.ca });
  }

  get publicKey(): string {
    return this.settings.vapid.publicKey;
  }

  /**
   * A stored message for someone with no tab open. Only the instance that stored it calls this,
   * so a message makes one push however many instances run.
   */
  async message(sender: Pick<UserRow, "id" | "name">, row: MessageRow): Promise<void> {
    const receiverId = row.receiverId;
    if (this.gates.isConnected(receiverId) || this.gates.refused(sender.id, receiverId)) return;
    await this.decide(async () => {
      const subs = await subscriptionsOf(this.db, receiverId);
      if (subs.length === 0) return;
      const elsewhere = await this.gates.connectedElsewhere(receiverId);
      // A tab may have opened here while another instance was asked.
      if (elsewhere || this.gates.isConnected(receiverId) || !this.take(receiverId)) return;
      const t = await receiverWords(this.db, receiverId);
      for (const sub of subs) {
        const body = sub.previews ? previewOf(row, t) : t("push.sent_message");
        this.enqueue({ sub, ttl: MESSAGE_TTL, payload: { type: "message", tag: `chat-${sender.id}`, chatId: sender.id, title: sender.name, body, url: chatUrl(sender.id) } });
      }
    });
  }

  /**
   * Has the person a device to ring (and no tab open)? Then a call to them may ring by push: what
   * ring() needs is read here, before the call starts, so ringing never waits on the database.
   */
  async ringable(callerId: number, receiverId: number): Promise<PushRing | null> {
    if (this.gates.isConnected(receiverId) || this.gates.refused(callerId, receiverId)) return null;
    const subs = await subscriptionsOf(this.db, receiverId);
    if (subs.length === 0) return null;
    // A tab on another instance (even one that signed out, or is in roulette) is "a tab open", as
    // here: the call is answered by the tabs' rules, never rung on the devices as well.
    if (await this.gates.connectedElsewhere(receiverId)) return null;
    return { receiverId, subs, t: await receiverWords(this.db, receiverId) };
  }

  /** A call ringing for someone with no tab open; false when nothing was sent (rate). */
  ring(caller: Pick<UserRow, "id" | "name">, { receiverId, subs, t }: PushRing, ringSeconds: number): boolean {
    if (subs.length === 0 || !this.take(receiverId)) return false;
    const body = t("push.incoming_call");
    for (const sub of subs) {
      this.enqueue({
        sub,
        ttl: ringSeconds,
        topic: callTag(caller.id),
        payload: { type: "call", tag: callTag(caller.id), chatId: caller.id, title: caller.name, body, url: chatUrl(caller.id) },
      });
    }
    return true;
  }

  /** The call stopped ringing: its notification closes. Not counted against the rate (it follows a ring that was). */
  ringEnded(callerId: number, receiverId: number, ringSeconds: number): void {
    // Read after the ring's pushes were queued (ring() queues at once), so this one follows them.
    void this.decide(async () => {
      for (const sub of await subscriptionsOf(this.db, receiverId)) {
        this.enqueue({ sub, ttl: ringSeconds, topic: callTag(callerId), payload: { type: "call_ended", tag: callTag(callerId) } });
      }
    });
  }

  /**
   * Work that reads before it queues pushes: idle() waits for it too. It never rejects (a message's
   * push is not awaited by anyone): a failure is logged.
   */
  private async decide(work: () => Promise<void>): Promise<void> {
    this.deciding++;
    try {
      await work();
    } catch (error) {
      this.log.error("push: could not decide on a push", errorFields(error));
    } finally {
      this.deciding--;
      this.settle();
    }
  }

  /** Resolves once nothing is queued or being sent (tests, shutdown). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.running === 0 && this.queue.length === 0 && this.deciding === 0;
  }

  private settle(): void {
    if (this.isIdle()) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private take(userId: number): boolean {
    if (this.rate.take(String(userId))) return true;
    this.log.debug("push: rate limited", { userId });
    return false;
  }

  private enqueue(job: Job): void {
    if (this.queue.length >= QUEUE_LIMIT) {
      this.log.warn("push: queue full, push dropped", { userId: job.sub.userId });
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.running < SEND_CONCURRENCY && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void this.send(job).finally(() => {
        this.running--;
        this.pump();
        this.settle();
      });
    }
  }

  /** Forgets a subscription the push service or the rules refused; a failure is logged, never thrown. */
  private async drop(id: number, host: string): Promise<void> {
    try {
      await dropSubscription(this.db, id);
    } catch (error) {
      this.log.warn("push: could not remove a subscription", { host, ...errorFields(error) });
    }
  }

  private async send({ sub, payload, ttl, topic }: Job): Promise<void> {
    const endpoint = checkEndpoint(sub.endpoint, this.settings.extraHosts);
    const host = typeof endpoint === "string" ? "" : endpoint.url.hostname;
    if (typeof endpoint === "string") {
      // Stored before PUSH_HOSTS lost its host: no longer allowed.
      await this.drop(sub.id, host);
      return;
    }
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        { vapidDetails: this.settings.vapid, TTL: ttl, urgency: "high", contentEncoding: "aes128gcm", ...(topic ? { topic } : {}) },
      );
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      const { status } = await this.transport({ endpoint, headers, body: details.body as Buffer });
      if (status === 404 || status === 410) {
        await this.drop(sub.id, host);
        this.log.debug("push: subscription expired, removed", { host, status });
      } else if (status < 200 || status > 299) {
        this.log.warn("push: refused by the push service", { host, status });
      }
    } catch (error) {
      // The endpoint is a capability URL: only its host is logged.
      if (error instanceof RefusedAddress) {
        // A name that points inside the network (or nowhere) is not a push service: forgotten.
        await this.drop(sub.id, host);
        this.log.warn("push: endpoint refused, subscription removed", { host, reason: error.message });
      }
      else this.log.warn("push: send failed", { host, ...errorFields(error) });
    }
  }
}
