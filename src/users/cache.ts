// The users rows that socket handlers read, kept in memory so a frame costs no user lookup
// (issue 11). Correct only because every write to a users row in this process calls forgetUser
// right after it (profile, avatar, role, bans, adult confirmation, roulette suspension, privacy,
// presence), and the next read loads the row again. Writes by another process are forgotten at
// the ban watcher's tick, every 2 s (moderation/watch.ts), so such a change shows within 2 s:
// - on SQLite (bun scripts/moderate.ts), when `PRAGMA data_version` moved: it moves only when
//   another connection commits, so the cache survives this process's own writes;
// - on PostgreSQL there is no such counter, and every other instance of the cluster is "another
//   process" writing users rows all the time (presence, profiles), so any stamp would move at
//   nearly every tick anyway: the cache is simply emptied at each tick. The cost is one read by
//   primary key per active user every 2 s, which is what the stamp would have cost in practice.
import type { UserRow } from "../storage/tables.ts";
import { engine, perDatabase, type Db, type Tx } from "../storage/index.ts";
import { statements } from "../messages/statements.ts";
import type { Bus } from "../cluster/ports.ts";

class UserCache {
  private readonly rows = new Map<number, UserRow>();
  /** Reads under way, so one miss per user reaches PostgreSQL however many frames wait on it. */
  private readonly loading = new Map<number, Promise<UserRow | undefined>>();
  private dataVersion: number;

  constructor(private readonly db: Db) {
    this.dataVersion = this.readDataVersion();
  }

  get(db: Db | Tx, id: number): UserRow | undefined | Promise<UserRow | undefined> {
    const cached = this.rows.get(id);
    if (cached) return cached;
    // A read under way is shared; starting another and dropping it would leave its failure (the
    // database away) unhandled, which ends the process.
    const loading = this.loading.get(id);
    if (loading) return loading;
    const read = statements(this.db).userById(db, id);
    if (!(read instanceof Promise)) {
      if (read) this.rows.set(id, read);
      return read;
    }
    let pending = this.loading.get(id);
    if (!pending) {
      // A forget while the read is under way drops the read's row: it may be older than the write.
      pending = read.then(
        (row) => {
          if (row && this.loading.get(id) === pending) this.rows.set(id, row);
          if (this.loading.get(id) === pending) this.loading.delete(id);
          return row;
        },
        (error: unknown) => {
          if (this.loading.get(id) === pending) this.loading.delete(id);
          throw error;
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** Several instances: each forget is published, and the others forget the row too. */
  private bus: Bus | null = null;

  share(bus: Bus): void {
    if (this.bus === bus) return;
    this.bus = bus;
    bus.subscribe("users.forget", (id) => this.forgetHere(id as number));
  }

  forget(id: number): void {
    this.forgetHere(id);
    this.bus?.publish("users.forget", id);
  }

  private forgetHere(id: number): void {
    this.rows.delete(id);
    this.loading.delete(id);
  }

  forgetIfChangedElsewhere(): boolean {
    if (engine === "postgres") {
      this.rows.clear();
      this.loading.clear();
      return true;
    }
    // data_version moves only when another connection commits; this connection's own writes are pushed.
    const version = this.readDataVersion();
    const changed = version !== this.dataVersion;
    this.dataVersion = version;
    if (changed) this.rows.clear();
    return changed;
  }

  private readDataVersion(): number {
    if (engine === "postgres") return 0;
    return (this.db.$client.query("PRAGMA data_version").get() as { data_version: number }).data_version;
  }

  get size(): number {
    return this.rows.size;
  }
}

const cacheOf = perDatabase((db) => new UserCache(db));

/**
 * The user's row as last written by this process (one lookup on first use or after a change).
 * Answers at once on a hit, and always on SQLite; a miss on PostgreSQL is a promise. `db` may be
 * a transaction's handle: the miss is then read through it.
 */
export function cachedUser(db: Db | Tx, id: number): UserRow | undefined | Promise<UserRow | undefined> {
  return cacheOf(db).get(db, id);
}

/** Call after every write to a users row: the next read loads it again. */
export function forgetUser(db: Db, id: number): void {
  cacheOf(db).forget(id);
}

/**
 * Several instances (context.ts): a write through any instance makes every instance forget the
 * row at once, over the bus. The ban watcher's tick (top of this file) stays as the backstop for
 * a forget lost with the bus (PUB/SUB is at most once) and for writes by scripts.
 */
export function shareUserCache(db: Db, bus: Bus): void {
  cacheOf(db).share(bus);
}

/** Forgets every row another process may have changed since the last call (see the top of this file). */
export function forgetUsersChangedElsewhere(db: Db): boolean {
  return cacheOf(db).forgetIfChangedElsewhere();
}

/** Rows held now (for tests and /metrics). */
export function cachedUserCount(db: Db): number {
  return cacheOf(db).size;
}
