// "Contacts" are the people a user has written to (API.md "Safety", privacy). Held in memory so
// that the "people I have written to" rule and the blurred-pictures rule cost no query per
// message. Loaded once at start-up from the stored messages; every stored message adds its pair.
import { sql } from "drizzle-orm";
import { messages } from "../../db/schema.ts";
import type { Db } from "../db.ts";

export class ContactRegistry {
  /** writer → the people they have written to. */
  private readonly wroteTo = new Map<number, Set<number>>();

  constructor(db: Db) {
    const rows = db.all<{ s: number; r: number }>(sql`SELECT DISTINCT sender_id AS s, receiver_id AS r FROM ${messages}`);
    for (const row of rows) this.add(row.s, row.r);
  }

  /** Has `writerId` ever sent a message or file to `otherId`? */
  hasWritten(writerId: number, otherId: number): boolean {
    return this.wroteTo.get(writerId)?.has(otherId) ?? false;
  }

  add(writerId: number, otherId: number): void {
    let set = this.wroteTo.get(writerId);
    if (!set) this.wroteTo.set(writerId, (set = new Set()));
    set.add(otherId);
  }
}
