// Databases for the bench, written straight into SQLite before a server starts, so seeding never
// takes minutes: the project's schema from db/migrations for the peer and the floor (users and
// signed sessions), and many messages in the project's own file for the history figures.
import { Database } from "bun:sqlite";
import { createHmac, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Account {
  id: number;
  token: string;
  gender: "male" | "female";
}

const MIGRATIONS = join(import.meta.dir, "..", "..", "db", "migrations");

/** The token format the peer and the floor check: `<session id>.<HMAC-SHA256 of it, base64url>`. */
export const signToken = (secret: string, sessionId: string): string => `${sessionId}.${createHmac("sha256", secret).update(sessionId).digest("base64url")}`;

export function openTuned(file: string): Database {
  const db = new Database(file, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA synchronous = NORMAL");
  return db;
}

/** Applies every committed migration in order: the same tables and indexes as the project. */
function migrate(db: Database): void {
  const files = readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  for (const file of files) {
    for (const statement of readFileSync(join(MIGRATIONS, file), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
}

/** A fresh database at `file` with `count` adult-confirmed users, each with one signed session. */
export function seedUsers(file: string, secret: string, count: number): Account[] {
  const db = openTuned(file);
  migrate(db);
  const now = Date.now();
  const user = db.prepare(
    `INSERT INTO users (username, username_key, name, gender, is_guest, last_seen, created_at, adult_confirmed_at)
     VALUES (?1, lower(?1), ?2, ?3, 1, ?4, ?4, ?4) RETURNING id`,
  );
  const session = db.prepare("INSERT INTO sessions (id, user_id, created_at, last_used_at) VALUES (?, ?, ?, ?)");
  const accounts = db.transaction(() =>
    Array.from({ length: count }, (_, i): Account => {
      const gender = i % 2 === 0 ? "female" : "male";
      const { id } = user.get(`Guest_b${i}`, `Guest ${i}`, gender, now) as { id: number };
      const sessionId = randomBytes(16).toString("hex");
      session.run(sessionId, id, now, now);
      return { id, token: signToken(secret, sessionId), gender };
    }),
  )();
  db.close();
  return accounts;
}

/**
 * Adds `count` text messages between `a` and `b` (alternating senders, one a second, ending an
 * hour ago) to the project's file, as its insert would have written them, all read and delivered.
 */
export function seedMessages(db: Database, a: number, b: number, count: number): void {
  const insert = db.prepare(
    `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, created_at, delivered_at, read_at)
     VALUES (?1, ?2, ?3, ?4, ?5, 'text', ?6, ?6, ?6)`,
  );
  const end = Date.now() - 3_600_000;
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const chunk = 50_000;
  for (let start = 0; start < count; start += chunk) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + chunk); i++) {
        const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
        insert.run(from, to, lo, hi, `seeded message ${i}`, end - (count - i) * 1000);
      }
    })();
  }
  // The chat list reads the conversations table (src/messages/conversations.ts): fill both sides.
  const side = db.prepare(
    `INSERT INTO conversations (owner_id, partner_id, last_message_id, last_message_at, unread_count)
     SELECT ?1, ?2, id, created_at, 0 FROM messages WHERE pair_lo = ?3 AND pair_hi = ?4 ORDER BY id DESC LIMIT 1
     ON CONFLICT (owner_id, partner_id) DO UPDATE SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at`,
  );
  for (const [owner, partner] of [[a, b], [b, a]]) side.run(owner!, partner!, lo, hi);
}
