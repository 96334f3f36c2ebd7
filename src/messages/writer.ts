// Group commit: messages that arrive in one event-loop turn are stored in one transaction, and
// each sender hears back only after that commit (a commit costs about as much as the inserts of
// ten messages; STACK-NOTES "Speed on this stack"). Durability is unchanged: nothing is
// acknowledged or delivered before the transaction holding it has committed.
//
// One batch is in flight at a time: what is submitted while a batch commits waits for that commit
// and then goes as the next batch (at most MAX_BATCH jobs each). Each batch is one
// `transaction(db, ...)` of the seam, so it takes its turn with every other write of the process;
// on PostgreSQL a batch whose jobs each write one statement needs none (`oneStatement`): its
// statements commit as they run, the inserts of all its messages still as one.
import { engine, perDatabase, transaction, type Db, type Tx } from "../storage/index.ts";
import { autocommitHandle } from "../storage/pg-transactions.ts";
import { AppError } from "../http/errors.ts";

interface Job {
  store: (tx: Tx) => unknown;
  oneStatement: boolean;
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
  submit<T>(store: (tx: Tx) => T | Promise<T>, options: SubmitOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ store, oneStatement: options.oneStatement === true, resolve: resolve as (value: unknown) => void, reject });
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
    if (this.draining) return this.draining;
    // Nothing queued: a turn's flush whose jobs a running drain already took (a full batch flushes
    // at once, and its turn's flush still comes). Starting a drain here was the bug: with nothing
    // to await it ran to its end, clearing `draining`, before `draining` was assigned, so it kept a
    // settled promise and no batch was ever written again (tests/messages/writer-drain.test.ts).
    // With a job queued, drain() stops at its first await before it can end.
    if (this.pending.length === 0) return Promise.resolve();
    return (this.draining = this.drain());
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
    if (PIPELINED && jobs.every((job) => job.oneStatement)) {
      const again = await this.runAutocommitted(jobs);
      if (again.length === 0) return this.settle(jobs);
      // What failed wrote nothing (its one statement failed whole): it goes the usual way, where
      // a replay isolates each job in its savepoint and a lost deadlock is tried again.
      await this.writeInTransaction(again);
      return this.settle(jobs.filter((job) => !again.includes(job)));
    }
    await this.writeInTransaction(jobs);
  }

  /**
   * PostgreSQL, a batch of one-statement jobs: started together on a handle whose statements
   * commit alone (storage/pg-transactions.ts), so the batch's inserts still go as one statement
   * (pg-store.ts) but without BEGIN and COMMIT, each a round trip waited for in turn. Answers the
   * jobs that failed other than by refusal, to be written again in a transaction.
   */
  private async runAutocommitted(jobs: Job[]): Promise<Job[]> {
    const handle = autocommitHandle(this.db);
    const settled = await Promise.allSettled(jobs.map((job) => started(job, handle)));
    const again: Job[] = [];
    settled.forEach((result, i) => {
      const job = jobs[i]!;
      if (result.status === "fulfilled") job.outcome = { ok: true, value: result.value };
      else if (result.reason instanceof AppError) job.outcome = { ok: false, error: result.reason };
      else again.push(job);
    });
    return again;
  }

  private settle(jobs: Job[]): void {
    for (const job of jobs) {
      const outcome = job.outcome!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    }
  }

  private async writeInTransaction(jobs: Job[]): Promise<void> {
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          try {
            await transaction(this.db, (tx) => this.run(tx, jobs, false));
          } catch (error) {
            if (!(error instanceof Replay)) throw error;
            await transaction(this.db, (tx) => this.run(tx, jobs, true));
          }
          break;
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !lostToAnother(error)) throw error;
        }
      }
    } catch (error) {
      // The commit itself failed: nothing of this batch is stored, so every sender hears so.
      for (const job of jobs) job.reject(error);
      return;
    }
    this.settle(jobs);
  }

  /** The jobs in order, each awaited; acknowledged by `write` only after the commit. */
  private async run(tx: Tx, jobs: Job[], savepoints: boolean): Promise<void> {
    if (PIPELINED && !savepoints) return this.runTogether(tx, jobs);
    for (const job of jobs) {
      try {
        // Nested in the batch's transaction, a transaction is a savepoint.
        // A job that answers at once (storeText on SQLite) is not awaited: no turn per message.
        const value = savepoints ? await transaction(tx, job.store) : job.store(tx);
        job.outcome = { ok: true, value: value instanceof Promise ? await value : value };
      } catch (error) {
        if (!savepoints && !(error instanceof AppError)) throw new Replay();
        job.outcome = { ok: false, error };
      }
    }
  }

  /**
   * PostgreSQL: every job started at once, so their statements go down the transaction's one
   * connection back to back (postgres.js pipelines them) instead of one round trip after another;
   * each job's own statements still run in its order, and the connection runs them in the order
   * sent. A failure that is not an AppError has aborted the transaction: replayed as on SQLite.
   */
  private async runTogether(tx: Tx, jobs: Job[]): Promise<void> {
    const settled = await Promise.allSettled(jobs.map((job) => started(job, tx)));
    settled.forEach((result, i) => {
      jobs[i]!.outcome = result.status === "fulfilled" ? { ok: true, value: result.value } : { ok: false, error: result.reason };
    });
    if (settled.some((result) => result.status === "rejected" && !(result.reason instanceof AppError))) throw new Replay();
  }
}

export interface SubmitOptions {
  /**
   * The job writes with one statement at most (its reads may be more): PostgreSQL runs that
   * statement atomically by itself, so a batch of such jobs needs no transaction around it.
   * A job that writes twice must not say so: its two writes would commit apart.
   */
  oneStatement?: boolean;
}

/** A job started, its refusal a rejection even when thrown at once (storeText checks before any await). */
function started(job: Job, tx: Tx): Promise<unknown> {
  try {
    return Promise.resolve(job.store(tx));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** On SQLite a job's statements answer at once, so there is nothing to overlap. */
const PIPELINED = engine === "postgres";

/** Thrown to roll back a batch whose failed job may have written part of itself. */
class Replay extends Error {}

/**
 * A batch PostgreSQL rolled back because it deadlocked with another instance's: two batches that
 * store into the same conversations in different orders lock their rows in different orders
 * (each pair's two rows are taken in one order, conversations.ts, but a batch holds many pairs).
 * Nothing of it was stored or told, so it runs again.
 */
const MAX_ATTEMPTS = 3;
function lostToAnother(error: unknown): boolean {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  const found = code(error) ?? code((error as { cause?: unknown } | null)?.cause);
  return found === "40P01" || found === "40001";
}

/** This database's writer (one per database, so one batch per turn). */
export const messageWriter: (db: Db) => MessageWriter = perDatabase((db) => new MessageWriter(db));
