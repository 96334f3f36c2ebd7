// The users rows' presence (is_online, last_seen), written with each batch strangers hear
// (lifecycle.ts), one batch after another: on PostgreSQL transactions do not take turns, and two
// batches committing out of order would leave a row with the older state (online after offline).
// A batch the database refused (PostgreSQL away, a statement past its timeout on a stalled disk)
// is not dropped: its changes go with the next batch, or on their own after RETRY_MS, so once the
// database answers again no row stays offline for someone here, or online for someone gone (every
// list, profile and count reads the rows). Memory: one entry per user whose change is not saved.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RowChange {
  online: boolean;
  /** The batch's time, kept as last_seen. */
  at: number;
}

/** Writes the rows in one transaction; rejects when nothing of it was saved. */
export type WriteRows = (changes: ReadonlyMap<number, RowChange>) => Promise<void>;

/**
 * Runs a function in the context this module loaded in, outside any caller's: a change announced
 * from inside a transaction's work (storage's AsyncLocalStorage) would otherwise carry that context
 * into the chain and the retry timer, and every write there would be refused as a nested
 * transaction, and retried for ever.
 */
const outside = AsyncLocalStorage.snapshot();

/** Between a refused write and its retry when no batch comes meanwhile. */
export const RETRY_MS = 2_000;

export class PresenceRows {
  /** Changes no write has saved yet, the newest per user. */
  private readonly unsaved = new Map<number, RowChange>();
  private chain: Promise<void> = Promise.resolve();
  private retry: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly write: WriteRows,
    /** A write refused ("not saved"; retried) or the batch's `then` thrown ("not announced"). */
    private readonly failed: (what: "not saved" | "not announced", error: unknown) => void,
    private readonly retryMs = RETRY_MS,
  ) {}

  /**
   * Saves the batch after every batch before it, with what those could not save, then runs
   * `then` (the batch's frames leave once its rows committed, or once the write was refused).
   */
  save(changes: ReadonlyMap<number, boolean>, at: number, then: () => void = () => {}): Promise<void> {
    return outside(() => {
      this.chain = this.chain
        .then(() => this.attempt(changes, at))
        .then(then)
        .catch((error: unknown) => this.failed("not announced", error));
      return this.chain;
    });
  }

  /** Users whose change waits for a retry. */
  get waiting(): number {
    return this.unsaved.size;
  }

  /** Shutting down: no more retries (start-up marks everyone offline). */
  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private async attempt(changes: ReadonlyMap<number, boolean>, at: number): Promise<void> {
    // Only this chain touches `unsaved`, one attempt at a time: what was refused before is older
    // than this batch, which wins where both name a user.
    const rows = new Map(this.unsaved);
    for (const [userId, online] of changes) rows.set(userId, { online, at });
    if (rows.size === 0) return;
    try {
      await this.write(rows);
      this.unsaved.clear();
    } catch (error) {
      for (const [userId, change] of rows) this.unsaved.set(userId, change);
      this.failed("not saved", error);
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.stopped && this.unsaved.size > 0) void this.save(new Map(), Date.now());
    }, this.retryMs);
    this.retry.unref?.();
  }
}
