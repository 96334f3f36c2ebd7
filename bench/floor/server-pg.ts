// The practical floor on PostgreSQL: raw Bun.serve + postgres.js doing the project's work per
// message on the project's PostgreSQL schema (db/migrations-pg), with the same sockets and frames
// as the SQLite floor (frames.ts). Group commit: one transaction per batch, one batch in flight at
// a time (what arrives meanwhile is the next batch), acknowledged and delivered after the commit.
// Inside the transaction the batch's inserts are sent at once, so postgres.js pipelines them on
// the connection: one round trip per batch, not per message, which only a raw driver makes this easy.
//   DATABASE_URL=... PORT=... BENCH_SECRET=... bun bench/floor/server-pg.ts   (started by bench/compare.ts)
import postgres from "postgres";
import { serveFloor, type Pending, type SessionRow, type Stored } from "./frames.ts";

// Two connections: the batch's transaction holds one, socket sign-ins read on the other.
// bigint columns (created_at, delivered_at) are milliseconds: numbers, as the SQLite floor's.
const sql = postgres(process.env.DATABASE_URL!, {
  max: 2,
  onnotice: () => {},
  types: { bigint: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) } },
});

const names = new Map<number, string>();
for (const row of await sql<{ id: number; name: string }[]>`SELECT id, name FROM users`) names.set(row.id, row.name);
const blocks = new Set<string>();
for (const row of await sql<{ a: number; b: number }[]>`SELECT blocker_id AS a, blocked_id AS b FROM blocks`) blocks.add(`${row.a}:${row.b}`);

async function sessionUser(sid: string): Promise<SessionRow | null> {
  const [row] = await sql<SessionRow[]>`SELECT u.id, u.name, u.banned FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${sid}`;
  return row ?? null;
}

type Row = Omit<Stored, "fresh">;
const store = (items: Pending[]): Promise<Stored[]> =>
  sql.begin((tx) =>
    Promise.all(
      items.map(async (p): Promise<Stored> => {
        const [row] = await tx<Row[]>`
          INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, client_message_id, created_at, delivered_at)
          VALUES (${p.senderId}, ${p.receiverId}, ${Math.min(p.senderId, p.receiverId)}, ${Math.max(p.senderId, p.receiverId)}, ${p.content}, ${p.type}, ${p.clientId}, ${p.createdAt!}, ${p.deliveredAt!})
          ON CONFLICT DO NOTHING RETURNING id, created_at, delivered_at`;
        if (row) return { ...row, fresh: true };
        const [before] = await tx<Row[]>`SELECT id, created_at, delivered_at FROM messages WHERE sender_id = ${p.senderId} AND client_message_id = ${p.clientId}`;
        return { ...before!, fresh: false };
      }),
    ),
  ) as Promise<Stored[]>;

serveFloor({ sessionUser, names, blocks, store }, process.env.BENCH_SECRET!, "floor-pg");
