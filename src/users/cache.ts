// The users rows that socket handlers read, kept in memory so a frame costs no user lookup
// (issue 11). Correct only because every write to a users row in this process calls forgetUser
// right after it (profile, avatar, role, bans, adult confirmation, roulette suspension, privacy,
// presence), and the next read loads the row again. Writes by another process (bun
// scripts/moderate.ts) are noticed by SQLite's data_version, checked by the ban watcher every 2 s
// (moderation/watch.ts), which then forgets every row: such a change shows within 2 s.
import type { UserRow } from "../../db/schema.ts";
import { perDatabase, type Db } from "../storage/index.ts";
import { statements } from "../messages/statements.ts";

class UserCache {
  private readonly rows = new Map<number, UserRow>();
  private dataVersion: number;

  constructor(private readonly db: Db) {
    this.dataVersion = this.readDataVersion();
  }

  get(id: number): UserRow | undefined {
    const cached = this.rows.get(id);
    if (cached) return cached;
    const row = statements(this.db).userById.get({ id });
    if (row) this.rows.set(id, row);
    return row;
  }

  forget(id: number): void {
    this.rows.delete(id);
  }

  /** data_version moves only when another connection commits; this connection's own writes are pushed. */
  forgetIfChangedElsewhere(): boolean {
    const version = this.readDataVersion();
    const changed = version !== this.dataVersion;
    this.dataVersion = version;
    if (changed) this.rows.clear();
    return changed;
  }

  private readDataVersion(): number {
    return (this.db.$client.query("PRAGMA data_version").get() as { data_version: number }).data_version;
  }

  get size(): number {
    return this.rows.size;
  }
}

const cacheOf = perDatabase((db) => new UserCache(db));

/** The user's row as last written by this process (one lookup on first use or after a change). */
export function cachedUser(db: Db, id: number): UserRow | undefined {
  return cacheOf(db).get(id);
}

/** Call after every write to a users row: the next read loads it again. */
export function forgetUser(db: Db, id: number): void {
  cacheOf(db).forget(id);
}

/** Forgets every row when another process wrote to the database since the last call. */
export function forgetUsersChangedElsewhere(db: Db): boolean {
  return cacheOf(db).forgetIfChangedElsewhere();
}

/** Rows held now (for tests and /metrics). */
export function cachedUserCount(db: Db): number {
  return cacheOf(db).size;
}
