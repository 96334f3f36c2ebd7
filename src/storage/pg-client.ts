// postgres.js under a drizzle handle: the pool's client, or the one connection a transaction
// holds. For the few statements every message runs (messages/statements.ts, conversations.ts):
// drizzle builds a statement's SQL text in JavaScript on every call, which on PostgreSQL cost
// more server CPU than the rest of a message's work; with the text made once, postgres.js
// prepares it once per connection and then only binds values.
import type { Sql } from "postgres";

export function pgClient(handle: object): Sql {
  // drizzle-orm/postgres-js keeps it as `session.client` on the database and on each transaction.
  const client = (handle as { session?: { client?: Sql } }).session?.client;
  if (!client) throw new Error("pgClient: not a drizzle PostgreSQL handle");
  return client;
}

/** A statement each pooled connection prepares once under its name, then only binds values. */
export interface NamedStatement<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/**
 * A drizzle query (its values as `sql.placeholder`s) made a named prepared statement on the pool.
 * Made on the database, it runs outside any transaction: writes inside one use the transaction's
 * builders. Takes the query untyped because the seam's handle types both engines' builders.
 */
export function namedStatement<Row>(query: unknown, name: string): NamedStatement<Row> {
  return (query as { prepare(name: string): NamedStatement<Row> }).prepare(name);
}
