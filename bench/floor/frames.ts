// The floor's socket side, the same for both engines (server.ts on bun:sqlite, server-pg.ts on
// PostgreSQL): the token checked once per socket, frames validated as the project does, users and
// blocks held in memory, messages of one event-loop turn handed to the engine's store as one
// batch (group commit), then acknowledged and delivered, each socket's frames corked together.
// A store that answers at once (SQLite) delivers in the same turn; one that answers a promise
// (PostgreSQL) has one batch in flight at a time, as the project's writer, and what arrives
// meanwhile goes as the next batch once that commit is back.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ServerWebSocket } from "bun";

export interface Conn {
  userId: number;
  name: string;
  tokens: number;
  refilled: number;
}
type Socket = ServerWebSocket<Conn>;

export interface Pending {
  senderId: number;
  receiverId: number;
  content: string;
  type: string;
  clientId: string | null;
  /** Set by the store: the receiver had a socket open when the message was stored. */
  deliveredAt?: number | null;
  createdAt?: number;
}
interface Frame extends Pending {
  ws: Socket;
  ack: number | undefined;
}

export interface Stored {
  id: number;
  created_at: number;
  delivered_at: number | null;
  /** False when the client message id was stored before: answered, not sent again. */
  fresh: boolean;
}

export interface SessionRow {
  id: number;
  name: string;
  banned: boolean | number;
}

export interface Storage {
  sessionUser(sid: string): SessionRow | null | Promise<SessionRow | null>;
  names: Map<number, string>;
  blocks: Set<string>;
  /** Stores the batch in one transaction; rows in the batch's order, once committed. */
  store(items: Pending[]): Stored[] | Promise<Stored[]>;
}

const RATE = { perSecond: 100_000, burst: 100_000 };
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function serveFloor(storage: Storage, secret: string, label: string): void {
  const sockets = new Map<number, Set<Socket>>();
  const blocked = (a: number, b: number) => storage.blocks.has(`${a}:${b}`) || storage.blocks.has(`${b}:${a}`);
  let lastCreated = 0;

  function userOf(token: string | null): SessionRow | null | Promise<SessionRow | null> {
    const [sid, mac] = (token ?? "").split(".");
    if (!sid || !mac) return null;
    const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64url"));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const row = storage.sessionUser(sid);
    const allowed = (r: SessionRow | null) => (r && !r.banned ? r : null);
    return row instanceof Promise ? row.then(allowed) : allowed(row);
  }

  function messageJson(p: Frame, row: Stored, viewer: number): string {
    const sender = p.ws.data;
    return JSON.stringify({
      id: row.id,
      sender_id: sender.userId,
      receiver_id: p.receiverId,
      sender_name: sender.name,
      content: p.content,
      message_type: p.type,
      file_name: null,
      file_path: null,
      file_size: null,
      group_id: null,
      client_message_id: p.clientId,
      clientMessageId: p.clientId,
      created_at: iso(row.created_at),
      is_delivered: row.delivered_at !== null,
      delivered_at: iso(row.delivered_at),
      is_read: false,
      read_at: null,
      is_removed: false,
      partner_id: viewer === sender.userId ? p.receiverId : sender.userId,
    });
  }

  /** Frames waiting for the end of the flush, per socket, so each socket's frames leave in one corked write. */
  let outbox = new Map<Socket, string[]>();
  const queue = (ws: Socket, frame: string) => {
    const frames = outbox.get(ws);
    if (frames) frames.push(frame);
    else outbox.set(ws, [frame]);
  };
  const sendAll = (userId: number, frame: string) => {
    for (const ws of sockets.get(userId) ?? []) queue(ws, frame);
  };

  function deliver(items: Frame[], rows: Stored[]): void {
    items.forEach((p, i) => {
      const row = rows[i]!;
      const mine = messageJson(p, row, p.senderId);
      if (p.ack !== undefined) queue(p.ws, `{"ack":${p.ack},"data":{"message":${mine}}}`);
      if (!row.fresh) return;
      sendAll(p.senderId, `{"event":"message_sent","data":{"message":${mine}}}`);
      sendAll(p.receiverId, `{"event":"new_message","data":{"message":${messageJson(p, row, p.receiverId)}}}`);
      if (row.delivered_at !== null) {
        sendAll(p.senderId, JSON.stringify({ event: "message_delivered", data: { messageId: row.id, deliveredAt: iso(row.delivered_at), receiverId: p.receiverId } }));
      }
    });
    const out = outbox;
    outbox = new Map();
    for (const [ws, frames] of out) ws.cork(() => frames.forEach((f) => ws.send(f)));
  }

  let batch: Frame[] = [];
  let inFlight = false;

  function flush(): void {
    const items = batch;
    batch = [];
    // Stamped here, as the SQLite floor always did inside its transaction: the receiver's sockets
    // at storing time, and created_at strictly increasing so each message has its own instant.
    for (const p of items) {
      p.deliveredAt = sockets.has(p.receiverId) ? Date.now() : null;
      lastCreated = Math.max(Date.now(), lastCreated + 1);
      p.createdAt = lastCreated;
    }
    const rows = storage.store(items);
    if (!(rows instanceof Promise)) return deliver(items, rows);
    inFlight = true;
    rows.then(
      (stored) => deliver(items, stored),
      (error) => {
        console.error(`${label}: a batch failed: ${(error as Error).message}`);
        for (const p of items) refuse(p.ws, p.ack, "unavailable", "The message was not stored");
      },
    ).finally(() => {
      inFlight = false;
      if (batch.length > 0) flush();
    });
  }

  function refuse(ws: Socket, ack: number | undefined, code: string, message: string): void {
    ws.send(JSON.stringify(ack === undefined ? { event: "error", data: { code, message, event: "send_message" } } : { ack, error: { code, message } }));
  }

  function takeToken(c: Conn): boolean {
    const now = performance.now();
    c.tokens = Math.min(RATE.burst, c.tokens + ((now - c.refilled) / 1000) * RATE.perSecond);
    c.refilled = now;
    if (c.tokens < 1) return false;
    c.tokens -= 1;
    return true;
  }

  function onFrame(ws: Socket, text: string): void {
    let frame: { event?: unknown; data?: Record<string, unknown>; ack?: unknown };
    try {
      frame = JSON.parse(text);
    } catch {
      return refuse(ws, undefined, "invalid_frame", "Not JSON");
    }
    const ack = Number.isInteger(frame.ack) ? (frame.ack as number) : undefined;
    if (!takeToken(ws.data)) return refuse(ws, ack, "rate_limited", "Too many events");
    if (frame.event === "ping") return void ws.send('{"event":"pong","data":{}}');
    if (frame.event !== "send_message") return refuse(ws, ack, "unknown_event", "Unknown event");
    const data = frame.data ?? {};
    const receiverId = typeof data.receiverId === "string" ? Number(data.receiverId) : data.receiverId;
    const content = typeof data.content === "string" ? data.content.trim() : "";
    const type = data.messageType ?? "text";
    const clientId = data.clientMessageId ?? null;
    if (!Number.isInteger(receiverId) || (receiverId as number) < 1) return refuse(ws, ack, "validation", "receiverId must be a user id");
    if (content.length < 1 || content.length > 4000) return refuse(ws, ack, "validation", "A message must be 1 to 4000 characters");
    if (type !== "text" && type !== "emoji") return refuse(ws, ack, "validation", "messageType must be text or emoji");
    if (clientId !== null && (typeof clientId !== "string" || clientId.length < 1 || clientId.length > 64)) return refuse(ws, ack, "validation", "clientMessageId: 1 to 64 characters");
    const to = receiverId as number;
    if (to === ws.data.userId) return refuse(ws, ack, "validation", "You cannot send a message to yourself");
    if (!storage.names.has(to)) return refuse(ws, ack, "not_found", "That user does not exist");
    if (blocked(ws.data.userId, to)) return refuse(ws, ack, "blocked", "You can't message this person");
    if (batch.length === 0 && !inFlight) setImmediate(flush);
    batch.push({ ws, ack, senderId: ws.data.userId, receiverId: to, content, type: type as string, clientId: clientId as string | null });
  }

  const server = Bun.serve<Conn>({
    hostname: "127.0.0.1",
    port: Number(process.env.PORT ?? 0),
    fetch(request, srv) {
      const url = new URL(request.url);
      if (url.pathname === "/healthz") return Response.json({ ok: true });
      if (url.pathname !== "/ws") return new Response("not found", { status: 404 });
      const upgrade = (user: SessionRow | null) => {
        if (!user) return new Response("unauthorised", { status: 401 });
        if (srv.upgrade(request, { data: { userId: user.id, name: user.name, tokens: RATE.burst, refilled: performance.now() } })) return undefined;
        return new Response("upgrade failed", { status: 400 });
      };
      const user = userOf(url.searchParams.get("token"));
      return user instanceof Promise ? user.then(upgrade) : upgrade(user);
    },
    websocket: {
      backpressureLimit: 256 * 1024,
      closeOnBackpressureLimit: true,
      open(ws) {
        const own = sockets.get(ws.data.userId) ?? new Set();
        own.add(ws);
        sockets.set(ws.data.userId, own);
      },
      message(ws, message) {
        onFrame(ws, typeof message === "string" ? message : message.toString());
      },
      close(ws) {
        const own = sockets.get(ws.data.userId);
        own?.delete(ws);
        if (own?.size === 0) sockets.delete(ws.data.userId);
      },
    },
  });
  console.log(`${label} listening on http://127.0.0.1:${server.port}`);
}
