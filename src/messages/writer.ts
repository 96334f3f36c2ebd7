// Group commit: messages that arrive in one event-loop turn are stored in one transaction, and
// each sender hears back only after that commit (a commit costs about as much as the inserts of
// ten messages; STACK-NOTES "Speed on this stack"). Durability is unchanged: nothing is
// acknowledged or delivered before the transaction holding it has committed.
import type { Db } from "../db.ts";

interface Job {
  store: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** A batch this large is written at once, so one turn's queue never grows without bound. */
const MAX_BATCH = 512;

export class MessageWriter {
  private pending: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  /**
   * Runs `store` inside the next batch's transaction; resolves with its result once committed.
   * A job that throws (validation, a block, an unknown receiver) fails alone, and the others of
   * its batch are stored; so a job writes nothing before its last check (storeText inserts last).
   */
  submit<T>(store: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ store, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length >= MAX_BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes what is queued now (also called by tests to flush without waiting a turn). */
  flush(): void {
    this.scheduled = false;
    const jobs = this.pending;
    if (jobs.length === 0) return;
    this.pending = [];
    try {
      this.db.transaction(() => {
        for (const job of jobs) {
          try {
            job.outcome = { ok: true, value: job.store() };
          } catch (error) {
            job.outcome = { ok: false, error };
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of this batch is stored, so every sender hears so.
      for (const job of jobs) job.reject(error);
      return;
    }
    for (const job of jobs) {
      const outcome = job.outcome!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    }
  }
}

const writers = new WeakMap<Db, MessageWriter>();

/** This database's writer (one per database, so one batch per turn). */
export function messageWriter(db: Db): MessageWriter {
  let found = writers.get(db);
  if (!found) writers.set(db, (found = new MessageWriter(db)));
  return found;
}
