// Group commit: messages that arrive in one event-loop turn are stored in one transaction, and
// each sender hears back only after that commit (a commit costs about as much as the inserts of
// ten messages; STACK-NOTES "Speed on this stack"). Durability is unchanged: nothing is
// acknowledged or delivered before the transaction holding it has committed.
//
// One batch is in flight at a time: what is submitted while a batch commits waits for that commit
// and then goes as the next batch (at most MAX_BATCH jobs each). Each batch is one
// `transaction(db, ...)` of the seam, so it takes its turn with every other write of the process.
import { perDatabase, transaction, type Db, type Tx } from "../storage/index.ts";
import { AppError } from "../http/errors.ts";

interface Job {
  store: (tx: Tx) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** A batch this large is written at once, so one turn's queue never grows without bound. */
const MAX_BATCH = 512;

export class MessageWriter {
  private pending: Job[] = [];
  private scheduled = false;
  /** Settles when the queue is drained: the batch in flight and any queued behind it. */
  private draining: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Runs `store` inside the next batch's transaction, handing it the transaction to write through;
   * resolves with its result once committed.
   * A job that throws fails alone and the others of its batch are stored. A job that throws an
   * AppError (validation, a block, an unknown receiver) must have written nothing (storeText
   * checks first and inserts last), so the batch needs no savepoint per job; any other error may
   * come after a write, and then the batch is rolled back and replayed with one savepoint per job.
   */
  submit<T>(store: (tx: Tx) => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ store, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length >= MAX_BATCH) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  /**
   * Writes what is queued (also called by tests to flush without waiting a turn); settles when
   * it is committed. While a batch is in flight, the queue goes after its commit.
   */
  flush(): Promise<void> {
    this.scheduled = false;
    return (this.draining ??= this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        let jobs = this.pending;
        if (jobs.length > MAX_BATCH) jobs = jobs.splice(0, MAX_BATCH);
        else this.pending = [];
        await this.write(jobs);
      }
    } finally {
      this.draining = null;
    }
  }

  private async write(jobs: Job[]): Promise<void> {
    try {
      try {
        await transaction(this.db, (tx) => this.run(tx, jobs, false));
      } catch (error) {
        if (!(error instanceof Replay)) throw error;
        await transaction(this.db, (tx) => this.run(tx, jobs, true));
      }
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

  /** The jobs in order, each awaited; acknowledged by `write` only after the commit. */
  private async run(tx: Tx, jobs: Job[], savepoints: boolean): Promise<void> {
    for (const job of jobs) {
      try {
        // Nested in the batch's transaction, a transaction is a savepoint.
        job.outcome = { ok: true, value: savepoints ? await transaction(tx, job.store) : await job.store(tx) };
      } catch (error) {
        if (!savepoints && !(error instanceof AppError)) throw new Replay();
        job.outcome = { ok: false, error };
      }
    }
  }
}

/** Thrown to roll back a batch whose failed job may have written part of itself. */
class Replay extends Error {}

/** This database's writer (one per database, so one batch per turn). */
export const messageWriter: (db: Db) => MessageWriter = perDatabase((db) => new MessageWriter(db));
