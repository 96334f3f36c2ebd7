// The peer: what a plain Node 20 + Socket.IO + better-sqlite3 server does for the project's
// send_message on the project's schema (the sockets and frames in shared.mjs, shared with
// server-pg.mjs). Per message: read the receiver (does it exist) and the blocks between the two
// with prepared statements, insert the message (delivered time set in the insert when the
// receiver is online, one autocommit write), read the stored one back if the client id repeats.
//   DB_FILE=... PORT=... BENCH_SECRET=... node bench/peer/server.mjs   (started by bench/compare.ts)
import Database from "better-sqlite3";
import { Refusal, servePeer } from "./shared.mjs";

const db = new Database(process.env.DB_FILE);
db.pragma("journal_mode = WAL");
db.pragma("foreign_keys = ON");
db.pragma("synchronous = NORMAL");

const sessionUser = db.prepare("SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?");
const receiverRow = db.prepare("SELECT id, name FROM users WHERE id = ?");
const blockRow = db.prepare("SELECT 1 FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)");
const insert = db.prepare(
  `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`,
);
const existing = db.prepare("SELECT id, created_at, delivered_at FROM messages WHERE sender_id = ? AND client_message_id = ?");

function store({ sender, receiverId, content, type, clientId, createdAt, deliveredAt }) {
  if (!receiverRow.get(receiverId)) throw new Refusal("not_found", "That user does not exist");
  if (blockRow.get(sender.id, receiverId, receiverId, sender.id)) throw new Refusal("blocked", "You can't message this person");
  const fresh = insert.get(sender.id, receiverId, Math.min(sender.id, receiverId), Math.max(sender.id, receiverId), content, type, clientId, createdAt, deliveredAt);
  return { row: fresh ?? existing.get(sender.id, clientId), fresh: Boolean(fresh) };
}

servePeer({ sessionUser: (sid) => sessionUser.get(sid), store, label: "peer" });
