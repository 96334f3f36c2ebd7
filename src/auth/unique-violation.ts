// Whether a write failed on a unique index (two sign-ups racing for one name): SQLite says so in
// its message ("UNIQUE constraint failed", code SQLITE_CONSTRAINT_UNIQUE), PostgreSQL by SQLSTATE
// 23505. drizzle wraps the driver's error (DrizzleQueryError) and keeps it as `cause`.
export function isUniqueViolation(error: unknown): boolean {
  for (let depth = 0; depth < 4 && error instanceof Error; depth++, error = error.cause) {
    const code = (error as { code?: unknown }).code;
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
    if (error.message.includes("UNIQUE constraint failed")) return true;
  }
  return false;
}
