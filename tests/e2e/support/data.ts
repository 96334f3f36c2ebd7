// The running test server's own SQLite file, read-only: what an operator's console would see,
// for checking what a browser test stored (or did not).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { RunningServer } from "./server.ts";

export function readServerDb<T>(server: Pick<RunningServer, "dataDir">, query: (db: Database) => T): T {
  const db = new Database(join(server.dataDir, "chat.sqlite"), { readonly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}
