// Accounts and sessions: register, log in, guests, the session behind a token, logout.
import { eq } from "drizzle-orm";
import { randomInt } from "node:crypto";
import { sessions, users, type UserRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";
import { countryName } from "../geo/countries.ts";
import { AppError, validationError } from "../http/errors.ts";
import { iso } from "../time.ts";
import { newSessionId, sessionIdOf, tokenFor } from "./tokens.ts";

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  name: string;
  gender: string;
  age: number;
  country_code: string;
  orientation?: string;
}

export interface Session {
  id: string;
  user: UserRow;
}

const invalidCredentials = () => new AppError(401, "invalid_credentials", "Invalid username or password");

/** A hash to verify against when the username is unknown, so both failures take as long. */
const decoyHash = Bun.password.hash("decoy password that matches nothing");

export function assertNotBanned(user: UserRow, now = Date.now()): void {
  if (!user.banned) return;
  if (user.bannedUntil !== null && user.bannedUntil <= now) return;
  throw new AppError(403, "banned", "This account is banned", {
    until: user.bannedUntil === null ? null : iso(user.bannedUntil),
  });
}

function startSession(db: Db, secret: string, userId: number): string {
  const id = newSessionId();
  const now = Date.now();
  db.insert(sessions).values({ id, userId, createdAt: now, lastUsedAt: now }).run();
  return tokenFor(secret, id);
}

export async function register(db: Db, secret: string, input: RegisterInput) {
  const name = input.name.trim();
  if (!name) throw validationError({ name: "Name must be 1 to 50 characters" });
  const country = countryName(input.country_code);
  if (!country) throw validationError({ country_code: "Choose a country" });
  const usernameKey = input.username.toLowerCase();
  const emailKey = input.email.trim().toLowerCase();
  if (db.select({ id: users.id }).from(users).where(eq(users.usernameKey, usernameKey)).get()) {
    throw new AppError(409, "username_taken", "This username is already taken", { fields: { username: "This username is already taken" } });
  }
  if (db.select({ id: users.id }).from(users).where(eq(users.emailKey, emailKey)).get()) {
    throw new AppError(409, "email_taken", "An account with this e-mail already exists", { fields: { email: "An account with this e-mail already exists" } });
  }
  const passwordHash = await Bun.password.hash(input.password);
  const now = Date.now();
  let user: UserRow | undefined;
  try {
    user = db
      .insert(users)
      .values({
        username: input.username,
        usernameKey,
        email: input.email.trim(),
        emailKey,
        passwordHash,
        name,
        gender: input.gender,
        orientation: input.orientation ?? "heterosexual",
        age: input.age,
        countryCode: input.country_code.toUpperCase(),
        countryName: country,
        lastSeen: now,
        createdAt: now,
        adultConfirmedAt: now,
      })
      .returning()
      .get();
  } catch (error) {
    // Two sign-ups racing for one name: the unique index decides.
    if (String(error).includes("UNIQUE")) {
      throw new AppError(409, "username_taken", "This username is already taken", { fields: { username: "This username is already taken" } });
    }
    throw error;
  }
  return { token: startSession(db, secret, user.id), user };
}

export async function login(db: Db, secret: string, identifier: string, password: string) {
  const key = identifier.trim().toLowerCase();
  const column = key.includes("@") ? users.emailKey : users.usernameKey;
  const user = db.select().from(users).where(eq(column, key)).get();
  const ok = await Bun.password.verify(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !user.passwordHash || !ok) throw invalidCredentials();
  assertNotBanned(user);
  return { token: startSession(db, secret, user.id), user };
}

const guestAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

export function createGuest(db: Db, secret: string, gender: "male" | "female") {
  const now = Date.now();
  for (let attempt = 0; attempt < 20; attempt++) {
    const suffix = Array.from({ length: 6 }, () => guestAlphabet[randomInt(guestAlphabet.length)]).join("");
    const username = `Guest_${suffix}`;
    const taken = db.select({ id: users.id }).from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
    if (taken) continue;
    const user = db
      .insert(users)
      .values({ username, usernameKey: username.toLowerCase(), name: username, gender, isGuest: true, lastSeen: now, createdAt: now, adultConfirmedAt: now })
      .returning()
      .get();
    return { token: startSession(db, secret, user.id), user };
  }
  throw new AppError(500, "internal", "Could not create a guest name, please try again");
}

/** The live session behind a token, or null when it is forged, revoked or its user is banned. */
export function sessionFor(db: Db, secret: string, token: unknown): Session | null {
  const sessionId = sessionIdOf(secret, token);
  return sessionId ? liveSession(db, sessionId) : null;
}

/** The session by id while it is not revoked and its user not banned. */
export function liveSession(db: Db, sessionId: string): Session | null {
  const row = db.select().from(sessions).innerJoin(users, eq(sessions.userId, users.id)).where(eq(sessions.id, sessionId)).get();
  if (!row) return null;
  const user = row.users;
  if (user.banned && (user.bannedUntil === null || user.bannedUntil > Date.now())) return null;
  const now = Date.now();
  // Touch at most once a minute: reads stay reads.
  if (now - row.sessions.lastUsedAt > 60_000) db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId)).run();
  return { id: sessionId, user };
}

export function revokeSession(db: Db, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/** Ends every session of a user (a ban or a password change); returns their ids. */
export function revokeUserSessions(db: Db, userId: number): string[] {
  return db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id }).all().map((r) => r.id);
}
