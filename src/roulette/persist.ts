// Roulette sessions on disk, so that a restart does not take away the 10 minutes in which a
// partner can be reported or blocked by the pairing id (issue 18). Memory stays the truth and
// the hot path stays free of database work: the sessions started, ended, written in and
// forgotten since the last pass are written every second, in transactions of at most 1,000 rows
// one event-loop turn apart (so a busy second never stalls everything else), and all at once at
// shutdown. A pairing that starts and is forgotten between two passes costs nothing. A kill -9
// loses at most the last second's pairings and lines; start-up reads the rest back. Each step is
// one transaction of the storage seam, so it takes its turn with every other write; steps run one
// after another (a step starts once the one before has committed and noted its rows).
// SQLite writes with bun:sqlite's prepared statements (the new row from lastInsertRowid);
// PostgreSQL with one statement per kind of change, its rows in one JSON value.
import type { Database } from "bun:sqlite";
import { and, eq, getTableColumns, getTableName, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { rouletteSessions } from "../storage/tables.ts";
import { engine, transaction, type Db, type Tx } from "../storage/index.ts";
import { pgClient } from "../storage/pg-client.ts";
import { errorFields, type Logger } from "../observability/log.ts";
import { SESSION_RETAIN_MS, type RouletteSessions, type Session, type SessionChanges, type TextLine } from "./sessions.ts";

/** How often changes are written: what a crash (not a clean stop) may lose. */
export const PERSIST_EVERY_MS = 1_000;
/** Rows (and characters of text) a timer pass writes per event-loop turn: a few milliseconds each. */
const STEP_ROWS = 1_000;
const STEP_CHARS = 512 * 1024;

// Table and column names from the schema, so a rename follows.
const c = Object.fromEntries(Object.entries(getTableColumns(rouletteSessions)).map(([key, column]) => [key, column.name])) as Record<keyof typeof rouletteSessions.$inferSelect, string>;
const TABLE = getTableName(rouletteSessions);

interface StoredRow {
  row: number;
  id: string;
  a: number;
  b: number;
  startedAt: number;
  endedAt: number | null;
  lines: string;
}

type Bindings = Record<string, string | number | null>;

export interface SessionStore {
  /** Writes everything not yet written, at once (the timer's passes go in steps); false if the write failed. */
  flush(): Promise<boolean>;
  /** Stops the timer and writes the last changes. */
  stop(): Promise<void>;
}

/** A changed session and its text as stored. */
interface Change {
  session: Session;
  lines: string;
}

/** What the store does to the table, in the running engine's form. */
interface Table {
  /** Drops the rows that ended before `before`: at start-up, before any request. */
  expire(before: number): Promise<void>;
  /** Every row, ended oldest first, then the ones that ran when the process stopped: the order restore() wants. */
  all(): Promise<StoredRow[]>;
  /** Inside the step's transaction: deletes `gone`, writes `changed`, answers their rows (the same order). */
  write(tx: Tx, gone: readonly number[], changed: readonly Change[]): Promise<number[]> | number[];
}

function onSqlite(db: Db): Table {
  const q = statements(db.$client as Database);
  return {
    // At start-up no transaction of this process can be open yet.
    expire: async (before) => void q.expire.run({ before }),
    all: async () => q.all.all(),
    // The prepared statements run on the transaction's connection (SQLite's one connection).
    write: (_tx, gone, changed) => {
      for (const row of gone) q.remove.run({ row });
      return changed.map(({ session: s, lines }) => {
        if (s.row !== 0) {
          q.update.run({ row: s.row, endedAt: s.endedAt, lines });
          return s.row;
        }
        return Number(q.insert.run({ id: s.id, a: s.a, b: s.b, startedAt: s.startedAt, endedAt: s.endedAt, lines }).lastInsertRowid);
      });
    },
  };
}

/** Rows per insert or update on PostgreSQL: all in one JSON value, whose size this bounds. */
const ROWS_PER_STATEMENT = 5_000;
/** Rows per delete on PostgreSQL: one value each. */
const DELETE_ROWS = 30_000;

// A step's rows as one JSON value, each statement prepared once per connection: drizzle built a
// thousand rows' insert (six values each) anew at every step and an update per row, a sixth of
// a busy matchmaker's CPU.
/** New rows from a JSON array of {id, a, b, started_at, ended_at, lines}; answers each row's key by pairing id. */
const INSERT_FROM_JSON = `INSERT INTO "${TABLE}" ("${c.id}", "${c.userA}", "${c.userB}", "${c.startedAt}", "${c.endedAt}", "${c.lines}") SELECT v.id, v.a, v.b, v.started_at, v.ended_at, v.lines FROM json_to_recordset($1::json) AS v(id text, a integer, b integer, started_at bigint, ended_at bigint, lines text) RETURNING "${c.row}" AS "row", "${c.id}" AS id`;
/** Rows written before, from a JSON array of {row, ended_at, lines}. */
const UPDATE_FROM_JSON = `UPDATE "${TABLE}" AS t SET "${c.endedAt}" = v.ended_at, "${c.lines}" = v.lines FROM json_to_recordset($1::json) AS v("row" integer, ended_at bigint, lines text) WHERE t."${c.row}" = v."row"`;

function onPostgres(db: Db): Table {
  const t = rouletteSessions;
  return {
    expire: async (before) => {
      await transaction(db, (tx) => tx.delete(t).where(and(isNotNull(t.endedAt), lte(t.endedAt, before))));
    },
    all: () =>
      db
        .select({ row: t.row, id: t.id, a: t.userA, b: t.userB, startedAt: t.startedAt, endedAt: t.endedAt, lines: t.lines })
        .from(t)
        .orderBy(sql`${t.endedAt} IS NULL`, t.endedAt, t.row),
    write: async (tx, gone, changed) => {
      for (let i = 0; i < gone.length; i += DELETE_ROWS) await tx.delete(t).where(inArray(t.row, gone.slice(i, i + DELETE_ROWS)));
      // Rows written before: one UPDATE for all of them, not one statement each in turn.
      const again = changed.filter(({ session }) => session.row !== 0);
      for (let i = 0; i < again.length; i += ROWS_PER_STATEMENT) {
        const values = JSON.stringify(again.slice(i, i + ROWS_PER_STATEMENT).map(({ session: s, lines }) => ({ row: s.row, ended_at: s.endedAt, lines })));
        await pgClient(tx).unsafe(UPDATE_FROM_JSON, [values], { prepare: true });
      }
      const fresh = changed.filter(({ session }) => session.row === 0);
      // New rows, matched back by pairing id (one row per session in a step).
      const made = new Map<string, number>();
      for (let i = 0; i < fresh.length; i += ROWS_PER_STATEMENT) {
        const values = JSON.stringify(fresh.slice(i, i + ROWS_PER_STATEMENT).map(({ session: s, lines }) => ({ id: s.id, a: s.a, b: s.b, started_at: s.startedAt, ended_at: s.endedAt, lines })));
        const rows = await pgClient(tx).unsafe<{ row: number; id: string }[]>(INSERT_FROM_JSON, [values], { prepare: true });
        for (const r of rows) made.set(r.id, r.row);
      }
      return changed.map(({ session: s }) => (s.row !== 0 ? s.row : made.get(s.id)!));
    },
  };
}

function statements(sqlite: Database) {
  return {
    insert: sqlite.prepare<never, Bindings>(
      `INSERT INTO ${TABLE} (${c.id}, ${c.userA}, ${c.userB}, ${c.startedAt}, ${c.endedAt}, ${c.lines})
       VALUES ($id, $a, $b, $startedAt, $endedAt, $lines)`,
    ),
    update: sqlite.prepare<never, Bindings>(`UPDATE ${TABLE} SET ${c.endedAt} = $endedAt, ${c.lines} = $lines WHERE ${c.row} = $row`),
    remove: sqlite.prepare<never, Bindings>(`DELETE FROM ${TABLE} WHERE ${c.row} = $row`),
    expire: sqlite.prepare<never, Bindings>(`DELETE FROM ${TABLE} WHERE ${c.endedAt} IS NOT NULL AND ${c.endedAt} <= $before`),
    // Ended oldest first, then the ones that ran when the process stopped: the order restore() wants.
    all: sqlite.prepare<StoredRow, []>(
      `SELECT ${c.row} AS row, ${c.id} AS id, ${c.userA} AS a, ${c.userB} AS b, ${c.startedAt} AS startedAt, ${c.endedAt} AS endedAt, ${c.lines} AS lines
       FROM ${TABLE} ORDER BY ${c.endedAt} IS NULL, ${c.endedAt}, ${c.row}`,
    ),
  };
}

const isLine = (value: unknown): value is TextLine =>
  typeof value === "object" &&
  value !== null &&
  "senderId" in value &&
  typeof value.senderId === "number" &&
  "text" in value &&
  typeof value.text === "string" &&
  "at" in value &&
  typeof value.at === "number";

/** A stored row as a session; a row whose text cannot be read keeps who and when, without text. */
function toSession(row: StoredRow): Session {
  let lines: TextLine[] = [];
  try {
    const parsed: unknown = JSON.parse(row.lines);
    if (Array.isArray(parsed)) lines = parsed.filter(isLine);
  } catch {}
  const chars = lines.reduce((sum, line) => sum + line.text.length, 0);
  return { id: row.id, a: row.a, b: row.b, startedAt: row.startedAt, endedAt: row.endedAt, lines, chars, keep: 0, row: row.row };
}

/**
 * Reads back what an earlier process left (dropping what expired meanwhile), then records every
 * change of `sessions` and writes it every PERSIST_EVERY_MS until stop().
 */
export async function persistRouletteSessions(sessions: RouletteSessions, db: Db, log: Logger, now: () => number = Date.now): Promise<SessionStore> {
  const table = (engine === "postgres" ? onPostgres : onSqlite)(db);
  // At start-up, before the server takes a request.
  await table.expire(now() - SESSION_RETAIN_MS);
  sessions.record();
  sessions.restore((await table.all()).map(toSession));

  /** Answers the rows the changed sessions have now (the same order). */
  const writeBatch = (gone: readonly number[], changed: readonly Change[]): Promise<number[]> => transaction(db, (tx) => table.write(tx, gone, changed));

  /** The step before: the next one picks its rows only once that one has noted its new rows. */
  let previous: Promise<boolean> = Promise.resolve(true);
  const step = (work: SessionChanges, maxRows: number, maxChars: number): Promise<boolean> =>
    (previous = previous.then(() => stepNow(work, maxRows, maxChars)));

  /** Writes up to `maxRows` rows (and about `maxChars` of text) taken from `work`; false, with all of `work` noted again, if that failed. */
  const stepNow = async (work: SessionChanges, maxRows: number, maxChars: number): Promise<boolean> => {
    const gone: number[] = [];
    const changed: Change[] = [];
    let chars = 0;
    while (work.gone.length > 0 && gone.length < maxRows) gone.push(work.gone.pop()!);
    while (work.changed.length > 0 && gone.length + changed.length < maxRows && chars < maxChars) {
      const session = work.changed.pop()!;
      // Forgotten since the pass began: nothing to write (a saved one's row is already noted as gone).
      if (!sessions.holds(session)) continue;
      const lines = session.lines.length === 0 ? "[]" : JSON.stringify(session.lines);
      chars += lines.length;
      changed.push({ session, lines });
    }
    if (gone.length === 0 && changed.length === 0) return true;
    let rows: number[];
    try {
      rows = await writeBatch(gone, changed);
    } catch (error) {
      // Rolled back: noted again for the next pass; memory still answers reports meanwhile.
      sessions.giveBack({ changed: changed.map((c) => c.session).concat(work.changed.splice(0)), gone: gone.concat(work.gone.splice(0)) });
      log.warn("roulette sessions could not be saved; retrying", errorFields(error));
      return false;
    }
    // Set only once committed: a rolled-back insert left no row to delete.
    changed.forEach(({ session }, i) => (session.row = rows[i]!));
    return true;
  };

  let running: SessionChanges | null = null;
  /** The timer's pass: in steps of STEP_ROWS rows, so a busy second never holds the event loop long. */
  const tick = () => {
    if (running) return;
    const work = sessions.takeChanges();
    if (work.changed.length === 0 && work.gone.length === 0) return;
    running = work;
    const next = async () => {
      if (running !== work) return;
      const saved = await step(work, STEP_ROWS, STEP_CHARS);
      // flush() took the rest of this pass meanwhile.
      if (running !== work) return;
      if (!saved || (work.changed.length === 0 && work.gone.length === 0)) running = null;
      else setImmediate(() => void next());
    };
    void next();
  };

  /** Everything at once: what a running pass has left, then every change since. */
  const flush = async (): Promise<boolean> => {
    if (running) {
      const work = running;
      running = null;
      if (!(await step(work, Infinity, Infinity))) return false;
    }
    return step(sessions.takeChanges(), Infinity, Infinity);
  };

  const timer = setInterval(tick, PERSIST_EVERY_MS);
  timer.unref?.();
  return {
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
