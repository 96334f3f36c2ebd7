// PostgreSQL: the messages a batch stores, and both sides' conversation rows, in one statement.
// The writer starts every job of a batch at once (writer.ts), so their inserts arrive here in one
// synchronous run; they are gathered and sent when it ends (a microtask), as one INSERT of all the
// rows with the conversations upsert in the same statement. A message then costs PostgreSQL a share
// of one statement instead of two statements of its own, and postgres.js one row of JSON instead of
// binding sixteen values twice.
//
// Rows travel as one JSON parameter (json_to_recordset), so one prepared statement serves any
// number of rows. Each answer is matched to its row by sender and time, not by the order of
// RETURNING (which SQL does not promise): the clock never gives one time twice in a process
// (service.ts MessageClock), and a row whose key is already gathered is sent in the next statement.
import { getTableColumns } from "drizzle-orm";
import { messages } from "../storage/tables.ts";
import { conversationColumns as c } from "./conversations.ts";
import type { Tx } from "../storage/index.ts";
import { pgClient } from "../storage/pg-client.ts";

/** What the insert binds (statements.ts NewMessage), with property names as keys. */
type Row = { senderId: number; receiverId: number; createdAt: number } & Record<string, unknown>;

/** PostgreSQL's type for each column json_to_recordset reads, from the schema's own columns. */
function columnType(column: { columnType: string }): string {
  switch (column.columnType) {
    case "PgInteger":
      return "integer";
    case "PgBigInt53":
      return "bigint";
    case "PgText":
      return "text";
    default:
      throw new Error(`pg-store: no JSON type for a ${column.columnType} column`);
  }
}

/**
 * The combined statement for the given properties (the insert's columns, in statements.ts order).
 * A later message's id wins a conversation's "last message"; each new message adds one to the
 * receiver's unread count. Conversation rows are written in (owner, partner) order, so two instances
 * writing the same pairs lock them in one order and cannot deadlock on them.
 */
export function combinedInsert(keys: readonly string[]): string {
  const all = getTableColumns(messages) as Record<string, { name: string; columnType: string }>;
  const column = (key: string) => all[key]!;
  return `WITH incoming AS (
    SELECT * FROM json_to_recordset($1::json) AS r(${keys.map((key) => `"${key}" ${columnType(column(key))}`).join(", ")})
  ), stored AS (
    INSERT INTO messages (${keys.map((key) => `"${column(key).name}"`).join(", ")})
    SELECT ${keys.map((key) => `"${key}"`).join(", ")} FROM incoming
    ON CONFLICT DO NOTHING
    RETURNING id, sender_id, receiver_id, created_at
  ), sides AS (
    SELECT sender_id AS owner, receiver_id AS partner, id, created_at, 0 AS unread FROM stored
    UNION ALL
    SELECT receiver_id, sender_id, id, created_at, 1 FROM stored
  ), listed AS (
    INSERT INTO conversations ("${c.owner}", "${c.partner}", "${c.id}", "${c.at}", "${c.unread}")
    SELECT owner, partner, max(id), (array_agg(created_at ORDER BY id DESC))[1], sum(unread)::integer
    FROM sides GROUP BY owner, partner ORDER BY owner, partner
    ON CONFLICT ("${c.owner}", "${c.partner}") DO UPDATE SET
      "${c.at}" = CASE WHEN excluded."${c.id}" > conversations."${c.id}" THEN excluded."${c.at}" ELSE conversations."${c.at}" END,
      "${c.id}" = greatest(conversations."${c.id}", excluded."${c.id}"),
      "${c.unread}" = conversations."${c.unread}" + excluded."${c.unread}"
  )
  SELECT id, sender_id AS "senderId", created_at AS "createdAt" FROM stored`;
}

interface Waiting {
  rows: Row[];
  answers: Map<string, { resolve: (id: number | null) => void; reject: (error: unknown) => void }>;
}

const keyOf = (row: Row) => `${row.senderId}:${row.createdAt}`;

/** One gatherer per transaction handle (a savepoint's handle gathers its own). */
export class CombinedInserts {
  private readonly waiting = new WeakMap<object, Waiting>();

  constructor(private readonly text: string) {}

  /** The new row's id once its statement has run, or null when the sender already stored this client id. */
  insert(tx: Tx, row: Row): Promise<number | null> {
    let batch = this.waiting.get(tx);
    const key = keyOf(row);
    if (batch?.answers.has(key)) {
      this.send(tx, batch);
      batch = undefined;
    }
    if (!batch) {
      const fresh: Waiting = { rows: [], answers: new Map() };
      this.waiting.set(tx, fresh);
      queueMicrotask(() => {
        if (this.waiting.get(tx) === fresh) this.send(tx, fresh);
      });
      batch = fresh;
    }
    const gathered = batch;
    gathered.rows.push(row);
    return new Promise((resolve, reject) => gathered.answers.set(key, { resolve, reject }));
  }

  private send(tx: Tx, batch: Waiting): void {
    this.waiting.delete(tx);
    pgClient(tx)
      .unsafe<{ id: number; senderId: number; createdAt: number }[]>(this.text, [JSON.stringify(batch.rows)], { prepare: true })
      .then(
        (stored) => {
          for (const row of stored) {
            const answer = batch.answers.get(keyOf(row as unknown as Row));
            answer?.resolve(row.id);
            batch.answers.delete(keyOf(row as unknown as Row));
          }
          // Not returned: the client id was already stored (ON CONFLICT DO NOTHING).
          for (const answer of batch.answers.values()) answer.resolve(null);
        },
        (error) => {
          for (const answer of batch.answers.values()) answer.reject(error);
        },
      );
  }
}
