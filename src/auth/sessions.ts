// Sessions: the row behind every token. A session ends on logout, a ban, a password change, or
// after SESSION_TTL_DAYS without use (API.md "General"); expired rows are refused when seen and
// swept hourly.
import { and, eq, gt, lt } from "drizzle-orm";
import { sessions, users, type UserRow } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db.ts";
import type { Origin } from "../moderation/bans.ts";
import { newSessionId, sessionIdOf, tokenFor } from "./tokens.ts";
import { errorFields, type Logger } from "../observability/log.ts";

export interface Session {
  id: string;
  user: UserRow;
}

/** What reading a token needs: the signing secret and how long an unused session lives. */
export type SessionKeys = Pick<Config, "secret" | "sessionTtlMs">;

/** Using a session moves its expiry; written at most once a minute, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

export function startSession(db: Db, secret: string, userId: number, origin: Origin): string {
  const id = newSessionId();
  const now = Date.now();
  db.insert(sessions).values({ id, userId, createdAt: now, lastUsedAt: now, deviceId: origin.deviceId, addressHash: origin.addressHash }).run();
  return tokenFor(secret, id);
}

/** The live session behind a token, or null when it is forged, revoked, expired or its user is banned. */
export function sessionFor(db: Db, keys: SessionKeys, token: unknown): Session | null {
  const sessionId = sessionIdOf(keys.secret, token);
  return sessionId ? liveSession(db, sessionId, keys.sessionTtlMs) : null;
}

/** The session by id while it is not revoked, not expired and its user not banned. */
export function liveSession(db: Db, sessionId: string, ttlMs: number, now = Date.now()): Session | null {
  const row = db.select().from(sessions).innerJoin(users, eq(sessions.userId, users.id)).where(eq(sessions.id, sessionId)).get();
  if (!row) return null;
  if (row.sessions.lastUsedAt <= now - ttlMs) {
    revokeSession(db, sessionId);
    return null;
  }
  const user = row.users;
  if (user.banned && (user.bannedUntil === null || user.bannedUntil > now)) return null;
  if (now - row.sessions.lastUsedAt > TOUCH_EVERY_MS) db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId)).run();
  return { id: sessionId, user };
}

/** Whether this browser (its device cookie) has a live session of this user: it signed in here before. */
export function knownDevice(db: Db, userId: number, deviceId: string, ttlMs: number, now = Date.now()): boolean {
  const found = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.deviceId, deviceId), gt(sessions.lastUsedAt, now - ttlMs)))
    .limit(1)
    .get();
  return found !== undefined;
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

export function revokeSession(db: Db, sessionId: string): void {
  const gone = db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ id: sessions.id }).all();
  ended(db, gone.map((r) => r.id));
}

/** Ends every session of a user (a ban or a password change); returns their ids. */
export function revokeUserSessions(db: Db, userId: number): string[] {
  return ended(db, db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }).all().map((r) => r.id));
}

/** Deletes sessions unused for `ttlMs`; returns how many. */
export function sweepExpiredSessions(db: Db, ttlMs: number, now: number): number {
  return ended(db, db.delete(sessions).where(lt(sessions.lastUsedAt, now - ttlMs)).returning({ id: sessions.id }).all().map((r) => r.id)).length;
}

/** Sweeps now and every hour (server.ts); returns the stop function. */
export function startSessionSweep(ctx: { db: Db; config: Pick<Config, "sessionTtlMs">; log: Logger }, everyMs = 60 * 60_000): () => void {
  const run = () => {
    try {
      sweepExpiredSessions(ctx.db, ctx.config.sessionTtlMs, Date.now());
    } catch (error) {
      ctx.log.error("session sweep failed", errorFields(error));
    }
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
