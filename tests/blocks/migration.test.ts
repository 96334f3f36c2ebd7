// Migration 0006 moves blocks of roulette strangers out of `blocks` into their own table, leaves
// named blocks where they were, and fills the known browsers from live sessions.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const real = join(import.meta.dir, "..", "..", "db", "migrations");
const dir = mkdtempSync(join(tmpdir(), "blocks-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations as they were before this one (and every later one). */
function before(): string {
  const folder = join(dir, "before");
  cpSync(real, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag < "0006_");
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe("migration 0006", () => {
  test("moves stranger blocks to roulette_blocks, keeps named ones, and records the browsers of sessions", () => {
    const sqlite = new Database(join(dir, "chat.sqlite"), { create: true, strict: true });
    sqlite.exec("PRAGMA foreign_keys = ON");
    const db = drizzle(sqlite);
    migrate(db, { migrationsFolder: before() });
    for (const id of [1, 2, 3]) {
      sqlite.query("INSERT INTO users (id, username, username_key, name, gender, last_seen, created_at) VALUES (?, ?, ?, 'N', 'male', 0, 0)").run(id, `u${id}`, `u${id}`);
    }
    sqlite.query("INSERT INTO blocks (blocker_id, blocked_id, anonymous, created_at) VALUES (1, 2, 1, 100), (1, 3, 0, 200)").run();
    sqlite.query("INSERT INTO sessions (id, user_id, created_at, last_used_at, device_id) VALUES ('s1', 2, 0, 50, 'dev'), ('s2', 2, 0, 70, 'dev'), ('s3', 3, 0, 60, NULL)").run();

    migrate(db, { migrationsFolder: real });
    expect(sqlite.query("SELECT blocker_id, blocked_id, created_at FROM blocks").all()).toEqual([{ blocker_id: 1, blocked_id: 3, created_at: 200 }]);
    expect(sqlite.query("SELECT blocker_id, blocked_id, created_at FROM roulette_blocks").all()).toEqual([{ blocker_id: 1, blocked_id: 2, created_at: 100 }]);
    expect(sqlite.query("SELECT user_id, device_id, last_seen_at FROM user_devices").all()).toEqual([{ user_id: 2, device_id: "dev", last_seen_at: 70 }]);
    sqlite.close();
  });
});
