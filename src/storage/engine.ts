// Which engine this process stores in: DATABASE_URL set means PostgreSQL, unset means SQLite in
// DATA_DIR. Read once, when the storage seam loads: the tables services import
// (storage/tables.ts), their hot statements and the transactions are of one dialect for the
// process's whole life, so nothing above the seam ever asks which one runs. Start-up checks that
// the configuration it was given says the same (server.ts, tests/support/app.ts).
export type Dialect = "sqlite" | "postgres";

export const engine: Dialect = (process.env.DATABASE_URL ?? "").trim() === "" ? "sqlite" : "postgres";
