// Which database failures mean "the database cannot be reached or cannot answer now" (API.md
// "Several instances": 503 `unavailable` with Retry-After, socket acks `unavailable`, never 500),
// as opposed to a bug (a bad statement, a broken constraint), which stays a logged 500 `internal`.
// The codes are what postgres.js raises (checked against PostgreSQL 15 here,
// tests/db/unavailable.test.ts): its own connection errors, the socket's, and PostgreSQL's
// "connection exception" (08), "insufficient resources" (53), "operator intervention" (57, which
// holds an admin shutdown and a statement cancelled by statement_timeout) classes. SQLite, one
// file on the same machine, has no such state: a locked file waits busy_timeout and then is a bug.
import { unavailable, type AppError } from "../http/errors.ts";
import { errorFields, type LogFields, type Logger } from "../observability/log.ts";

const CONNECTION_CODES = new Set([
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // the socket
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** PostgreSQL SQLSTATE classes that say "not now", not "wrong". */
const SQLSTATE_CLASSES = ["08", "53", "57"];

export function isDatabaseUnavailable(error: unknown): boolean {
  return outageCode(error) !== undefined;
}

/** The driver's or PostgreSQL's code of an outage (ECONNREFUSED, CONNECT_TIMEOUT, 57P01...), for the log. */
export function outageCode(error: unknown): string | undefined {
  // drizzle wraps the driver's error (DrizzleQueryError, with the statement) and keeps it as `cause`.
  for (let depth = 0; depth < 4 && error instanceof Error; depth++, error = error.cause) {
    if (outage(error)) return (error as unknown as { code: string }).code;
  }
  return undefined;
}

function outage(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  if (CONNECTION_CODES.has(code)) return true;
  // A SQLSTATE is five characters; only PostgresError carries one.
  return error.name === "PostgresError" && code.length === 5 && SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

/** The contract's answer for a database that is away, or undefined for any other error. */
export function unavailableFor(error: unknown): AppError | undefined {
  return isDatabaseUnavailable(error) ? unavailable() : undefined;
}

/**
 * A background task's failure (a sweep, the ban watcher, the presence rows): while the database
 * is away it is the outage every refused request already reports, so a warning with its code and
 * no stack, as "database unavailable" is for a request (a tick every 2 s would otherwise write an
 * error and its stack every 2 s); anything else is a bug, logged as an error with where it came from.
 */
export function logFailure(log: Logger, what: string, error: unknown, fields: LogFields = {}): void {
  const code = outageCode(error);
  if (code !== undefined) log.warn(what, { ...fields, code });
  else log.error(what, { ...fields, ...errorFields(error) });
}
