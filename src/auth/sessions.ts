// Sessions: the row behind every token. A session ends on logout, a ban, a password change, or
// after SESSION_TTL_DAYS without use (API.md "General"); expired rows are refused when seen and
// swept hourly.
//
// Reading a session is asynchronous (a PostgreSQL read is a round trip); on SQLite it stays one
// synchronous prepared read behind the promise, so every HTTP request, socket opening and page
// costs what it did plus a settled promise. Its two writes (the touch once a minute, the
// revocation of an expired session) go to the message writer's next batch instead of a
// transaction of their own: the batch already takes its turn with every other write (a write
// beside an open transaction would land inside it, storage/sqlite-transactions.ts), and a read
// must not wait for a commit. Revoking otherwise awaits its transaction.
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { sessions, users, type UserRow } from "../storage/tables.ts";
import type { Config } from "../config.ts";
import type { Db as Engine } from "../db.ts";
import { messageWriter } from "../messages/writer.ts";
import { engine, perDatabase, transaction, type Db, type Tx } from "../storage/index.ts";
import { namedStatement } from "../storage/pg-client.ts";
import type { Origin } from "../moderation/bans.ts";
import { newSessionId, sessionIdOf, tokenFor } from "./tokens.ts";
import { recordDevice } from "./user-devices.ts";
import type { Logger } from "../observability/log.ts";
import { logFailure } from "../storage/unavailable.ts";

export interface Session {
  id: string;
  user: UserRow;
  /** The device the session began on (requestDevice's fallback when a request carries no cookie). */
  deviceId: string | null;
}

/** What reading a token needs: the signing secret and how long an unused session lives. */
export type SessionKeys = Pick<Config, "secret" | "sessionTtlMs">;

/** Using a session moves its expiry; written at most once a minute, so reads stay reads. */
export const TOUCH_EVERY_MS = 60_000;

const p = sql.placeholder;

interface LiveRow {
  id: string;
  lastUsedAt: number;
  deviceId: string | null;
  user: UserRow;
}

/** The session statements, one form per engine, chosen when a database's are made. */
interface Statements {
  /** On SQLite answered at once; on PostgreSQL a promise. */
  live(id: string): LiveRow | undefined | Promise<LiveRow | undefined>;
  /** Writes: run inside the transaction `tx` (the message writer's batch). */
  touch(tx: Tx, id: string, at: number): unknown;
  revoke(tx: Tx, id: string): string[] | Promise<string[]>;
  knownDevice(userId: number, deviceId: string, since: number): Promise<boolean>;
}

const liveQuery = (db: Engine) =>
  db
    .select({ id: sessions.id, lastUsedAt: sessions.lastUsedAt, deviceId: sessions.deviceId, user: users })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(eq(sessions.id, p("id")));

const knownDeviceQuery = (db: Engine) =>
  db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, p("userId")), eq(sessions.deviceId, p("deviceId")), gt(sessions.lastUsedAt, p("since"))))
    .limit(1);

// Every HTTP request and socket opening reads a session: prepared once per database, so a check
// is one indexed join instead of drizzle rebuilding and SQLite re-preparing it each time
// (STACK-NOTES "Speed on this stack").
function onSqlite(db: Engine): Statements {
  const live = liveQuery(db).prepare();
  const touch = db.update(sessions).set({ lastUsedAt: sql`${p("at")}` }).where(eq(sessions.id, p("id"))).prepare();
  const revoke = db.delete(sessions).where(eq(sessions.id, p("id"))).returning({ id: sessions.id }).prepare();
  const known = knownDeviceQuery(db).prepare();
  return {
    live: (id) => live.get({ id }),
    // The prepared writes run on SQLite's one connection, which the transaction holds.
    touch: (_tx, id, at) => touch.run({ id, at }),
    revoke: (_tx, id) => revoke.all({ id }).map((r) => r.id),
    knownDevice: async (userId, deviceId, since) => (await known.execute({ userId, deviceId, since })).length > 0,
  };
}

function onPostgres(db: Engine): Statements {
  // Named statements on the pool (a write inside a transaction uses the transaction's builders).
  const live = namedStatement<LiveRow>(liveQuery(db), "session_live");
  const known = namedStatement<{ id: string }>(knownDeviceQuery(db), "session_known_device");
  return {
    live: async (id) => (await live.execute({ id }))[0],
    touch: (tx, id, at) => tx.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, id)),
    revoke: async (tx, id) => (await tx.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id })).map((r) => r.id),
    knownDevice: async (userId, deviceId, since) => (await known.execute({ userId, deviceId, since })).length > 0,
  };
}

const statements = perDatabase(engine === "postgres" ? onPostgres : onSqlite);

export async function startSession(db: Db, secret: string, userId: number, origin: Origin): Promise<string> {
  const id = newSessionId();
  const now = Date.now();
  await transaction(db, (tx) => tx.insert(sessions).values({ id, userId, createdAt: now, lastUsedAt: now, deviceId: origin.deviceId, addressHash: origin.addressHash }));
  await recordDevice(db, userId, origin.deviceId, now);
  return tokenFor(secret, id);
}

/** The live session behind a token, or null when it is forged, revoked, expired or its user is banned. */
export async function sessionFor(db: Db, keys: SessionKeys, token: unknown): Promise<Session | null> {
  return (await checkSession(db, keys, token)).session;
}

/** A session check, and the write it started if any (settles once committed; never rejects). */
export interface SessionCheck {
  session: Session | null;
  written: Promise<unknown> | null;
}

const NO_SESSION: SessionCheck = { session: null, written: null };

/** sessionFor, also answering the write it started, for a caller that can wait for it (an HTTP answer). */
export async function checkSession(db: Db, keys: SessionKeys, token: unknown): Promise<SessionCheck> {
  const sessionId = sessionIdOf(keys.secret, token);
  return sessionId ? checkLive(db, sessionId, keys.sessionTtlMs, Date.now()) : NO_SESSION;
}

/** The session by id while it is not revoked, not expired and its user not banned. */
export async function liveSession(db: Db, sessionId: string, ttlMs: number, now = Date.now()): Promise<Session | null> {
  return (await checkLive(db, sessionId, ttlMs, now)).session;
}

async function checkLive(db: Db, sessionId: string, ttlMs: number, now: number): Promise<SessionCheck> {
  const s = statements(db);
  const row = await s.live(sessionId);
  if (!row) return NO_SESSION;
  if (row.lastUsedAt <= now - ttlMs) {
    // Refused now; the row goes with the writer's next batch (the hourly sweep if that fails).
    const written = messageWriter(db)
      .submit((tx) => s.revoke(tx, sessionId))
      .then((ids) => ended(db, ids), () => {});
    return { session: null, written };
  }
  const user = row.user;
  if (user.banned && (user.bannedUntil === null || user.bannedUntil > now)) return NO_SESSION;
  // A touch that fails is tried again at the next request: it only moves the expiry.
  const written = now - row.lastUsedAt > TOUCH_EVERY_MS ? messageWriter(db).submit((tx) => s.touch(tx, sessionId, now), { oneStatement: true }).catch(() => {}) : null;
  // The row's own copy of the id: `sessionId` is a slice of the token, and a socket that holds
  // its session id for hours would keep the whole token alive with it (issue 11).
  return { session: { id: row.id, user, deviceId: row.deviceId }, written };
}

/** Whether this browser (its device cookie) has a live session of this user: it signed in here before. */
export async function knownDevice(db: Db, userId: number, deviceId: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  return statements(db).knownDevice(userId, deviceId, now - ttlMs);
}

/** Told the ids of sessions that just ended, so whatever was opened with them closes at once. */
export type SessionsEndedListener = (sessionIds: string[]) => void;

const endedListeners = new WeakMap<Db, Set<SessionsEndedListener>>();

/**
 * Sockets check their session once, when they open; every deletion of a session row below pushes
 * its id here instead of each frame asking again. Returns the function that stops listening.
 */
export function onSessionsEnded(db: Db, listener: SessionsEndedListener): () => void {
  let set = endedListeners.get(db);
  if (!set) endedListeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

function ended(db: Db, sessionIds: string[]): string[] {
  if (sessionIds.length > 0) for (const listener of endedListeners.get(db) ?? []) listener(sessionIds);
  return sessionIds;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  ended(db, await transaction(db, (tx) => statements(tx).revoke(tx, sessionId)));
}

/** Ends every session of a user (a ban or a password change); returns their ids. */
export async function revokeUserSessions(db: Db, userId: number): Promise<string[]> {
  const gone = await transaction(db, (tx) => tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }));
  return ended(db, gone.map((r) => r.id));
}

/** Deletes sessions unused for `ttlMs`; returns how many. */
export async function sweepExpiredSessions(db: Db, ttlMs: number, now: number): Promise<number> {
  const gone = await transaction(db, (tx) => tx.delete(sessions).where(lt(sessions.lastUsedAt, now - ttlMs)).returning({ id: sessions.id }));
  return ended(db, gone.map((r) => r.id)).length;
}

/** Sweeps now and every hour (server.ts); returns the stop function. */
export function startSessionSweep(ctx: { db: Db; config: Pick<Config, "sessionTtlMs">; log: Logger }, everyMs = 60 * 60_000): () => void {
  const run = () => {
    sweepExpiredSessions(ctx.db, ctx.config.sessionTtlMs, Date.now()).catch((error) => logFailure(ctx.log, "session sweep failed", error));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
