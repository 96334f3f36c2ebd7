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
