// The users rows that socket handlers read, kept in memory so a frame costs no user lookup
// (issue 11). Correct only because every write to a users row in this process calls forgetUser
// right after it (profile, avatar, role, bans, adult confirmation, roulette suspension, privacy,
// presence), and the next read loads the row again. Writes by another process show within 2 s:
// - on SQLite (bun scripts/moderate.ts), the ban watcher's tick (every 2 s, moderation/watch.ts)
//   empties the cache when `PRAGMA data_version` moved: it moves only when another connection
//   commits, so the cache survives this process's own writes;
// - on PostgreSQL there is no such counter, and every other instance of the cluster is "another
//   process" writing users rows all the time (presence, profiles), so any stamp would move at
//   nearly every tick anyway: each row is kept for 1 to 1.9 s after its read (Lifetimes), then
//   read again. The cost is one read by primary key per active user every second or two, what
//   a stamp would have cost in practice. Emptying the whole cache at each tick cost the same
//   reads, but all at once: every active user's next frame waited on a read at the same moment,
//   every 2 s, which the cluster bench's roulette p99 showed.
import type { UserRow } from "../storage/tables.ts";
import { engine, perDatabase, type Db, type Tx } from "../storage/index.ts";
import { statements } from "../messages/statements.ts";
import type { Bus } from "../cluster/ports.ts";

/** How long a row read from PostgreSQL is kept: drawn for each read, so rows read together go apart. */
const KEEP_MIN_MS = 1_000;
const KEEP_MAX_MS = 1_900;
const SLOT_MS = 100;
/** Enough slots for the longest stay: a row is gone within SLOT_MS of its time, at most 2 s after its read. */
const SLOTS = Math.ceil((KEEP_MAX_MS + SLOT_MS) / SLOT_MS);

/**
 * When each row read from PostgreSQL leaves the cache: a ring of SLOT_MS slots of user ids, the
 * slots whose time has passed emptied at the next lookup (no timer: a cache per test database
 * would keep one each). An id forgotten and read again may sit in two slots: the earlier one
 * drops the newer row early, which costs one read.
 */
export class Lifetimes {
  private readonly slots: number[][] = Array.from({ length: SLOTS }, () => []);
  /** When the slot at `index` ends. */
  private ends: number;
  private index = 0;

  constructor(
    private readonly rows: Map<number, unknown>,
    now: number,
    private readonly random: () => number = Math.random,
  ) {
    this.ends = now + SLOT_MS;
  }

  /** `id` was read at `now`. */
  add(id: number, now: number): void {
    this.expire(now);
    const leaves = now + KEEP_MIN_MS + this.random() * (KEEP_MAX_MS - KEEP_MIN_MS);
    const ahead = Math.min(SLOTS - 1, Math.max(0, Math.ceil((leaves - this.ends) / SLOT_MS)));
    this.slots[(this.index + ahead) % SLOTS]!.push(id);
  }

  /** Drops from the rows every id whose time has come. */
  expire(now: number): void {
    const rows = this.rows;
    if (now < this.ends) return;
    if (now - this.ends >= SLOTS * SLOT_MS) {
      // Idle longer than any stay: everything has gone.
      for (const slot of this.slots) slot.length = 0;
      rows.clear();
      this.ends = now + SLOT_MS;
      return;
    }
    while (now >= this.ends) {
      const slot = this.slots[this.index]!;
      for (const id of slot) rows.delete(id);
      slot.length = 0;
      this.index = (this.index + 1) % SLOTS;
      this.ends += SLOT_MS;
    }
  }
}

class UserCache {
  private readonly rows = new Map<number, UserRow>();
  /** Reads under way, so one miss per user reaches PostgreSQL however many frames wait on it. */
  private readonly loading = new Map<number, Promise<UserRow | undefined>>();
  private dataVersion: number;
  /** PostgreSQL only: when each row goes. */
  private readonly lifetimes: Lifetimes | null;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {
    this.dataVersion = this.readDataVersion();
    this.lifetimes = engine === "postgres" ? new Lifetimes(this.rows, clock()) : null;
  }

  get(db: Db | Tx, id: number): UserRow | undefined | Promise<UserRow | undefined> {
    this.lifetimes?.expire(this.clock());
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
          if (row && this.loading.get(id) === pending) {
            this.rows.set(id, row);
            this.lifetimes?.add(id, this.clock());
          }
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
    // PostgreSQL: each row goes by itself (Lifetimes).
    if (this.lifetimes) return false;
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
