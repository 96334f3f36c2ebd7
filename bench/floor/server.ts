// The practical floor: raw Bun.serve + bun:sqlite doing the project's work per message with
// nothing else in the way. The token is checked once per socket (HMAC, then the session row);
// users and blocks are held in memory; messages that arrive in one event-loop turn are stored in
// one transaction (group commit), and only then acknowledged and delivered, sends corked.
// Checkpoints run in a worker thread as the project's do (src/wal/), so the floor stays the limit
// for the same technique; FLOOR_WAL_WORKER=0 (bench/compare.ts passes it on) leaves them to SQLite,
// inside a commit, as it does by default.
//   DB_FILE=... PORT=... BENCH_SECRET=... bun bench/floor/server.ts   (started by bench/compare.ts)
import { Database } from "bun:sqlite";
import { startCheckpointer } from "../../src/wal/checkpointer.ts";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ServerWebSocket } from "bun";

const db = new Database(process.env.DB_FILE!, { strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA foreign_keys = ON");
db.exec("PRAGMA synchronous = NORMAL");
// As the project's connection: a moment's lock by the checkpointer's connection is waited for.
db.exec("PRAGMA busy_timeout = 5000");
if (process.env.FLOOR_WAL_WORKER === "1") startCheckpointer(db, process.env.DB_FILE!);
const secret = process.env.BENCH_SECRET!;

interface Conn {
  userId: number;
  name: string;
  tokens: number;
  refilled: number;
}
type Socket = ServerWebSocket<Conn>;

const names = new Map<number, string>();
for (const row of db.query("SELECT id, name FROM users").all() as { id: number; name: string }[]) names.set(row.id, row.name);
const blocks = new Set<string>();
for (const row of db.query("SELECT blocker_id AS a, blocked_id AS b FROM blocks").all() as { a: number; b: number }[]) blocks.add(`${row.a}:${row.b}`);
const blocked = (a: number, b: number) => blocks.has(`${a}:${b}`) || blocks.has(`${b}:${a}`);

const sessionUser = db.prepare("SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?");
const insert = db.prepare(
  `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`,
);
const existing = db.prepare("SELECT id, receiver_id, content, message_type, created_at, delivered_at, read_at FROM messages WHERE sender_id = ? AND client_message_id = ?");

const sockets = new Map<number, Set<Socket>>();
const RATE = { perSecond: 100_000, burst: 100_000 };
let lastCreated = 0;

function userOf(token: string | null): { id: number; name: string } | null {
  const [sid, mac] = (token ?? "").split(".");
  if (!sid || !mac) return null;
  const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64url"));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const row = sessionUser.get(sid) as { id: number; name: string; banned: number } | null;
  return row && !row.banned ? row : null;
}

interface Pending {
  ws: Socket;
  ack: number | undefined;
  receiverId: number;
  content: string;
  type: string;
  clientId: string | null;
}
let batch: Pending[] = [];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function messageJson(p: Pending, id: number, createdAt: number, deliveredAt: number | null, viewer: number): string {
  const sender = p.ws.data;
  return JSON.stringify({
    id,
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
    created_at: iso(createdAt),
    is_delivered: deliveredAt !== null,
    delivered_at: iso(deliveredAt),
    is_read: false,
    read_at: null,
    is_removed: false,
    partner_id: viewer === sender.userId ? p.receiverId : sender.userId,
  });
}

/** Frames waiting for the end of the flush, per socket, so each socket's frames leave in one corked write. */
let outbox = new Map<Socket, string[]>();

function queue(ws: Socket, frame: string): void {
  const frames = outbox.get(ws);
  if (frames) frames.push(frame);
  else outbox.set(ws, [frame]);
}

function sendAll(userId: number, frame: string): void {
  for (const ws of sockets.get(userId) ?? []) queue(ws, frame);
}

/** Stores the turn's messages in one transaction, then answers and delivers each. */
const storeBatch = db.transaction((items: Pending[]) =>
  items.map((p) => {
    const senderId = p.ws.data.userId;
    const deliveredAt = sockets.has(p.receiverId) ? Date.now() : null;
    lastCreated = Math.max(Date.now(), lastCreated + 1);
    const row = insert.get(senderId, p.receiverId, Math.min(senderId, p.receiverId), Math.max(senderId, p.receiverId), p.content, p.type, p.clientId, lastCreated, deliveredAt) as
      | { id: number; created_at: number; delivered_at: number | null }
      | null;
    return row ? { ...row, fresh: true } : { ...(existing.get(senderId, p.clientId) as { id: number; created_at: number; delivered_at: number | null }), fresh: false };
  }),
);

function flush(): void {
  const items = batch;
  batch = [];
  const rows = storeBatch(items);
  items.forEach((p, i) => {
    const row = rows[i]!;
    const senderId = p.ws.data.userId;
    const mine = messageJson(p, row.id, row.created_at, row.delivered_at, senderId);
    if (p.ack !== undefined) queue(p.ws, `{"ack":${p.ack},"data":{"message":${mine}}}`);
    if (!row.fresh) return;
    sendAll(senderId, `{"event":"message_sent","data":{"message":${mine}}}`);
    sendAll(p.receiverId, `{"event":"new_message","data":{"message":${messageJson(p, row.id, row.created_at, row.delivered_at, p.receiverId)}}}`);
    if (row.delivered_at !== null) {
      sendAll(senderId, JSON.stringify({ event: "message_delivered", data: { messageId: row.id, deliveredAt: iso(row.delivered_at), receiverId: p.receiverId } }));
    }
  });
  const out = outbox;
  outbox = new Map();
  for (const [ws, frames] of out) ws.cork(() => frames.forEach((f) => ws.send(f)));
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
  if (!names.has(to)) return refuse(ws, ack, "not_found", "That user does not exist");
  if (blocked(ws.data.userId, to)) return refuse(ws, ack, "blocked", "You can't message this person");
  if (batch.length === 0) setImmediate(flush);
  batch.push({ ws, ack, receiverId: to, content, type, clientId: clientId as string | null });
}

const server = Bun.serve<Conn>({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  fetch(request, srv) {
    const url = new URL(request.url);
    if (url.pathname === "/healthz") return Response.json({ ok: true });
    if (url.pathname !== "/ws") return new Response("not found", { status: 404 });
    const user = userOf(url.searchParams.get("token"));
    if (!user) return new Response("unauthorised", { status: 401 });
    if (srv.upgrade(request, { data: { userId: user.id, name: user.name, tokens: RATE.burst, refilled: performance.now() } })) return undefined;
    return new Response("upgrade failed", { status: 400 });
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
console.log(`floor listening on http://127.0.0.1:${server.port}`);
