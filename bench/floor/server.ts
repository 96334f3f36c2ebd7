// The practical floor: raw Bun.serve + bun:sqlite doing the project's work per message with
// nothing else in the way (the sockets and frames in frames.ts, shared with server-pg.ts). The
// session row is read once per socket; messages that arrive in one event-loop turn are stored in
// one transaction (group commit), and only then acknowledged and delivered.
// Checkpoints run in a worker thread as the project's do (src/wal/), so the floor stays the limit
// for the same technique; FLOOR_WAL_WORKER=0 (bench/compare.ts passes it on) leaves them to SQLite,
// inside a commit, as it does by default.
//   DB_FILE=... PORT=... BENCH_SECRET=... bun bench/floor/server.ts   (started by bench/compare.ts)
import { Database } from "bun:sqlite";
import { startCheckpointer } from "../../src/wal/checkpointer.ts";
import { serveFloor, type Pending, type SessionRow, type Stored } from "./frames.ts";

const db = new Database(process.env.DB_FILE!, { strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA foreign_keys = ON");
db.exec("PRAGMA synchronous = NORMAL");
// As the project's connection: a moment's lock by the checkpointer's connection is waited for.
db.exec("PRAGMA busy_timeout = 5000");
if (process.env.FLOOR_WAL_WORKER === "1") startCheckpointer(db, process.env.DB_FILE!);

const names = new Map<number, string>();
for (const row of db.query("SELECT id, name FROM users").all() as { id: number; name: string }[]) names.set(row.id, row.name);
const blocks = new Set<string>();
for (const row of db.query("SELECT blocker_id AS a, blocked_id AS b FROM blocks").all() as { a: number; b: number }[]) blocks.add(`${row.a}:${row.b}`);

const sessionUser = db.prepare("SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?");
const insert = db.prepare(
  `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`,
);
const existing = db.prepare("SELECT id, created_at, delivered_at FROM messages WHERE sender_id = ? AND client_message_id = ?");

type Row = Omit<Stored, "fresh">;
const store = db.transaction((items: Pending[]): Stored[] =>
  items.map((p) => {
    const row = insert.get(p.senderId, p.receiverId, Math.min(p.senderId, p.receiverId), Math.max(p.senderId, p.receiverId), p.content, p.type, p.clientId, p.createdAt!, p.deliveredAt!) as Row | null;
    return row ? { ...row, fresh: true } : { ...(existing.get(p.senderId, p.clientId) as Row), fresh: false };
  }),
);

serveFloor({ sessionUser: (sid) => sessionUser.get(sid) as SessionRow | null, names, blocks, store }, process.env.BENCH_SECRET!, "floor");
