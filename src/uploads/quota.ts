// How many bytes of chat files each user has stored, for STORAGE_QUOTA_MB. Loaded from the
// messages at start (one grouped query), kept in memory, and re-read for one user from the
// database before a refusal, so files a moderator removed meanwhile are no longer counted.
import { eq, isNotNull, sql } from "drizzle-orm";
import { messages } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { AppError } from "../http/errors.ts";

// A number on both engines (postgres.js answers a bigint sum as a string).
const total = sql<number>`coalesce(sum(${messages.fileSize}), 0)`.mapWith(Number);

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export class StorageLedger {
  private readonly stored = new Map<number, number>();
  /** Bytes of uploads being stored right now, counted before their message exists. */
  private readonly pending = new Map<number, number>();
  /** Moves with every change to `stored`: a refresh that read an older total leaves it alone. */
  private changes = 0;
  /**
   * Several instances (context.ts): files stored through another instance are not in `stored`, so
   * every check reads the user's total from the database first (one grouped query per upload; an
   * upload is rare next to a message). Uploads in flight on another instance at that moment are
   * not counted: with N instances a user can pass the quota by at most the uploads in flight on
   * the others when theirs was checked.
   */
  everywhere = false;

  constructor(
    private readonly db: Db,
    readonly quotaBytes: number,
  ) {}

  /** At start-up (context.ts loadContext): each sender's stored bytes, in one grouped query. */
  async load(): Promise<void> {
    const rows = await this.db.select({ userId: messages.senderId, bytes: total }).from(messages).where(isNotNull(messages.filePath)).groupBy(messages.senderId);
    for (const row of rows) this.stored.set(row.userId, Number(row.bytes));
  }

  usedBy(userId: number): number {
    return (this.stored.get(userId) ?? 0) + (this.pending.get(userId) ?? 0);
  }

  private async refresh(userId: number): Promise<void> {
    const seen = this.changes;
    const [row] = await this.db.select({ bytes: total }).from(messages).where(eq(messages.senderId, userId));
    // A file stored or freed while the total was read may be missing from it, but is in `stored`.
    if (this.changes === seen) this.stored.set(userId, Number(row?.bytes ?? 0));
  }

  /** Before reading a body: refuses at once when nothing more fits. */
  async assertRoom(userId: number): Promise<void> {
    if (!this.everywhere && this.usedBy(userId) < this.quotaBytes) return;
    await this.refresh(userId);
    if (this.usedBy(userId) >= this.quotaBytes) throw this.exceeded(userId, null);
  }

  /** Counts `bytes` as pending for the user, or throws 413 quota_exceeded. */
  async reserve(userId: number, bytes: number): Promise<void> {
    if (this.everywhere || this.usedBy(userId) + bytes > this.quotaBytes) await this.refresh(userId);
    if (this.usedBy(userId) + bytes > this.quotaBytes) throw this.exceeded(userId, bytes);
    this.pending.set(userId, (this.pending.get(userId) ?? 0) + bytes);
  }

  /** The message was stored: the bytes are now the user's files. */
  commit(userId: number, bytes: number): void {
    this.changes++;
    this.release(userId, bytes);
    this.stored.set(userId, (this.stored.get(userId) ?? 0) + bytes);
  }

  /** A stored file was deleted by its sender: its bytes no longer count. */
  freed(userId: number, bytes: number): void {
    this.changes++;
    const left = (this.stored.get(userId) ?? 0) - bytes;
    if (left > 0) this.stored.set(userId, left);
    else this.stored.delete(userId);
  }

  /** The upload failed: its bytes were never stored. */
  release(userId: number, bytes: number): void {
    const left = (this.pending.get(userId) ?? 0) - bytes;
    if (left > 0) this.pending.set(userId, left);
    else this.pending.delete(userId);
  }

  private exceeded(userId: number, bytes: number | null): AppError {
    const used = `Your files take up ${mb(this.usedBy(userId))} of the ${mb(this.quotaBytes)} each person may store`;
    const why = bytes === null ? "so nothing more can be sent" : `and this upload (${mb(bytes)}) does not fit`;
    return new AppError(413, "quota_exceeded", `${used}, ${why}.`);
  }
}
