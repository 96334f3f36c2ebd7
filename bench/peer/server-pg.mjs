// The peer on PostgreSQL: the same Node + Socket.IO server (shared.mjs) with postgres.js on the
// project's PostgreSQL schema (db/migrations-pg), doing the SQLite peer's work per message with
// the same statements: read the receiver, read the blocks, insert (one autocommit write), read
// the stored one back if the client id repeats; each a round trip from a pool of connections,
// as a plain Node server on PostgreSQL would.
//   DATABASE_URL=... PORT=... BENCH_SECRET=... node bench/peer/server-pg.mjs   (started by bench/compare.ts)
import postgres from "postgres";
import { Refusal, servePeer } from "./shared.mjs";

// postgres.js's default pool (10); bigint columns (created_at, delivered_at) are milliseconds: numbers.
const sql = postgres(process.env.DATABASE_URL, {
  max: 10,
  onnotice: () => {},
  types: { bigint: { to: 20, from: [20], serialize: (n) => String(n), parse: (s) => Number(s) } },
});

async function sessionUser(sid) {
  const [row] = await sql`SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${sid}`;
  return row ?? null;
}

async function store({ sender, receiverId, content, type, clientId, createdAt, deliveredAt }) {
  const [receiver] = await sql`SELECT id, name FROM users WHERE id = ${receiverId}`;
  if (!receiver) throw new Refusal("not_found", "That user does not exist");
  const [block] = await sql`SELECT 1 FROM blocks WHERE (blocker_id = ${sender.id} AND blocked_id = ${receiverId}) OR (blocker_id = ${receiverId} AND blocked_id = ${sender.id})`;
  if (block) throw new Refusal("blocked", "You can't message this person");
  const [fresh] = await sql`
    INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
    VALUES (${sender.id}, ${receiverId}, ${Math.min(sender.id, receiverId)}, ${Math.max(sender.id, receiverId)}, ${content}, ${type}, ${clientId}, ${createdAt}, ${deliveredAt})
    ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`;
  if (fresh) return { row: fresh, fresh: true };
  const [before] = await sql`SELECT id, created_at, delivered_at FROM messages WHERE sender_id = ${sender.id} AND client_message_id = ${clientId}`;
  return { row: before, fresh: false };
}

servePeer({ sessionUser, store, label: "peer-pg" });
