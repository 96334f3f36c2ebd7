// The peer's Socket.IO side, the same on both engines (server.mjs on better-sqlite3, server-pg.mjs
// on PostgreSQL): the token's HMAC and its session row once per socket; per message the payload
// validated, the sender's rate bucket spent, then the engine's `store` (receiver, blocks, insert),
// then the ack with the stored message, message_sent to the sender's sockets, new_message to the
// receiver's and message_delivered to the sender: the same four frames as the project. A store
// that answers at once (better-sqlite3) answers the ack in the same turn; one that answers a
// promise (PostgreSQL) when it settles.
import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";
import { Server } from "socket.io";

const RATE = { perSecond: 100_000, burst: 100_000 };
let lastCreated = 0;

export class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
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

function takeToken(bucket) {
  const now = performance.now();
  bucket.tokens = Math.min(RATE.burst, bucket.tokens + ((now - bucket.refilled) / 1000) * RATE.perSecond);
  bucket.refilled = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/** The checked send: what `store` gets, with created_at strictly increasing so each message has its own instant. */
function validate(io, socket, data) {
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
  const online = (io.sockets.adapter.rooms.get(room(receiverId))?.size ?? 0) > 0;
  const now = Date.now();
  lastCreated = Math.max(now, lastCreated + 1);
  return { sender, receiverId, content, type, clientId, createdAt: lastCreated, deliveredAt: online ? now : null };
}

function emit(io, m, stored) {
  const { sender, receiverId, content, type, clientId } = m;
  const { row, fresh } = stored;
  const message = toMessage(row, sender, receiverId, content, type, clientId, sender.id);
  if (fresh) {
    io.to(room(sender.id)).emit("message_sent", { message });
    io.to(room(receiverId)).emit("new_message", { message: toMessage(row, sender, receiverId, content, type, clientId, receiverId) });
    if (row.delivered_at !== null) io.to(room(sender.id)).emit("message_delivered", { messageId: row.id, deliveredAt: iso(row.delivered_at), receiverId });
  }
  return { message };
}

const refusal = (error) => {
  if (!(error instanceof Refusal)) throw error;
  return { error: { code: error.code, message: error.message } };
};

/**
 * Starts the peer. `sessionUser(sid)` answers the session's user row; `store(m)` checks the
 * receiver and the blocks (throwing a Refusal) and inserts, answering `{ row, fresh }` (fresh
 * false: the client message id was stored before); either may answer a promise.
 */
export function servePeer({ sessionUser, store, label }) {
  const secret = process.env.BENCH_SECRET;
  const userOf = (token) => {
    const [sid, mac] = String(token ?? "").split(".");
    if (!sid || !mac) return null;
    const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64url"));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return sessionUser(sid);
  };

  const http = createServer((request, response) => {
    if (request.url === "/healthz") {
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    response.writeHead(404).end();
  });
  const io = new Server(http, { transports: ["websocket"], serveClient: false });

  io.use((socket, next) => {
    const signIn = (user) => {
      if (!user || user.banned) return next(new Error("unauthorised"));
      socket.data.user = user;
      socket.data.bucket = { tokens: RATE.burst, refilled: performance.now() };
      next();
    };
    const user = userOf(socket.handshake.auth?.token ?? socket.handshake.query?.token);
    if (user instanceof Promise) user.then(signIn, next);
    else signIn(user);
  });

  io.on("connection", (socket) => {
    socket.join(room(socket.data.user.id));
    socket.on("send_message", (data, ack) => {
      const reply = (answer) => typeof ack === "function" && ack(answer);
      let m, stored;
      try {
        m = validate(io, socket, data);
        stored = store(m);
      } catch (error) {
        return reply(refusal(error));
      }
      if (stored instanceof Promise) stored.then((s) => reply(emit(io, m, s)), (error) => reply(refusal(error)));
      else reply(emit(io, m, stored));
    });
  });

  http.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`${label} listening on http://127.0.0.1:${http.address().port}`));
}
