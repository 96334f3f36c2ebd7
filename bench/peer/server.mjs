// The peer: what a plain Node 20 + Socket.IO + better-sqlite3 server does for the project's
// send_message on the project's schema. Per socket: the token's HMAC and its session row, once.
// Per message: validate the payload, spend the sender's rate bucket, read the receiver (does it
// exist) and the blocks between the two with prepared statements, insert the message (delivered
// time set in the insert when the receiver is online, one autocommit write), then the ack with
// the stored message, message_sent to the sender's sockets, new_message to the receiver's and
// message_delivered to the sender: the same four frames as the project.
//   DB_FILE=... PORT=... BENCH_SECRET=... node bench/peer/server.mjs   (started by bench/compare.ts)
import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";
import Database from "better-sqlite3";
import { Server } from "socket.io";

const db = new Database(process.env.DB_FILE);
db.pragma("journal_mode = WAL");
db.pragma("foreign_keys = ON");
db.pragma("synchronous = NORMAL");
const secret = process.env.BENCH_SECRET;
const RATE = { perSecond: 100_000, burst: 100_000 };

const sessionUser = db.prepare("SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?");
const receiverRow = db.prepare("SELECT id, name FROM users WHERE id = ?");
const blockRow = db.prepare("SELECT 1 FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)");
const insert = db.prepare(
  `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`,
);
const existing = db.prepare("SELECT id, created_at, delivered_at FROM messages WHERE sender_id = ? AND client_message_id = ?");
let lastCreated = 0;

function userOf(token) {
  const [sid, mac] = String(token ?? "").split(".");
  if (!sid || !mac) return null;
  const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64url"));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const row = sessionUser.get(sid);
  return row && !row.banned ? row : null;
}

const iso = (ms) => (ms === null ? null : new Date(ms).toISOString());
const room = (userId) => `u:${userId}`;

function toMessage(row, sender, receiverId, content, type, clientId, viewer) {
  return {
    id: row.id,
    sender_id: sender.id,
    receiver_id: receiverId,
    sender_name: sender.name,
    content,
    message_type: type,
    file_name: null,
    file_path: null,
    file_size: null,
    group_id: null,
    client_message_id: clientId,
    clientMessageId: clientId,
    created_at: iso(row.created_at),
    is_delivered: row.delivered_at !== null,
    delivered_at: iso(row.delivered_at),
    is_read: false,
    read_at: null,
    is_removed: false,
    partner_id: viewer === sender.id ? receiverId : sender.id,
  };
}

class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function takeToken(bucket) {
  const now = performance.now();
  bucket.tokens = Math.min(RATE.burst, bucket.tokens + ((now - bucket.refilled) / 1000) * RATE.perSecond);
  bucket.refilled = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

function sendMessage(io, socket, data) {
  const sender = socket.data.user;
  if (!takeToken(socket.data.bucket)) throw new Refusal("rate_limited", "Too many events");
  const receiverId = typeof data?.receiverId === "string" ? Number(data.receiverId) : data?.receiverId;
  const content = typeof data?.content === "string" ? data.content.trim() : "";
  const type = data?.messageType ?? "text";
  const clientId = data?.clientMessageId ?? null;
  if (!Number.isInteger(receiverId) || receiverId < 1) throw new Refusal("validation", "receiverId must be a user id");
  if (content.length < 1 || content.length > 4000) throw new Refusal("validation", "A message must be 1 to 4000 characters");
  if (type !== "text" && type !== "emoji") throw new Refusal("validation", "messageType must be text or emoji");
  if (clientId !== null && (typeof clientId !== "string" || clientId.length < 1 || clientId.length > 64)) throw new Refusal("validation", "clientMessageId: 1 to 64 characters");
  if (receiverId === sender.id) throw new Refusal("validation", "You cannot send a message to yourself");
  if (!receiverRow.get(receiverId)) throw new Refusal("not_found", "That user does not exist");
  if (blockRow.get(sender.id, receiverId, receiverId, sender.id)) throw new Refusal("blocked", "You can't message this person");
  const online = (io.sockets.adapter.rooms.get(room(receiverId))?.size ?? 0) > 0;
  const now = Date.now();
  lastCreated = Math.max(now, lastCreated + 1);
  const fresh = insert.get(sender.id, receiverId, Math.min(sender.id, receiverId), Math.max(sender.id, receiverId), content, type, clientId, lastCreated, online ? now : null);
  const row = fresh ?? existing.get(sender.id, clientId);
  const message = toMessage(row, sender, receiverId, content, type, clientId, sender.id);
  if (fresh) {
    io.to(room(sender.id)).emit("message_sent", { message });
    io.to(room(receiverId)).emit("new_message", { message: toMessage(row, sender, receiverId, content, type, clientId, receiverId) });
    if (online) io.to(room(sender.id)).emit("message_delivered", { messageId: row.id, deliveredAt: iso(row.delivered_at), receiverId });
  }
  return { message };
}

const http = createServer((request, response) => {
  if (request.url === "/healthz") {
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    return;
  }
  response.writeHead(404).end();
});
const io = new Server(http, { transports: ["websocket"], serveClient: false });

io.use((socket, next) => {
  const user = userOf(socket.handshake.auth?.token ?? socket.handshake.query?.token);
  if (!user) return next(new Error("unauthorised"));
  socket.data.user = user;
  socket.data.bucket = { tokens: RATE.burst, refilled: performance.now() };
  next();
});

io.on("connection", (socket) => {
  socket.join(room(socket.data.user.id));
  socket.on("send_message", (data, ack) => {
    let answer;
    try {
      answer = sendMessage(io, socket, data);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      answer = { error: { code: error.code, message: error.message } };
    }
    if (typeof ack === "function") ack(answer);
  });
});

http.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`peer listening on http://127.0.0.1:${http.address().port}`));
