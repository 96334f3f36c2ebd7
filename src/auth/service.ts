// Accounts: register, log in, guests. Sessions (the row behind a token) are in sessions.ts.
import { eq, or } from "drizzle-orm";
import { randomInt } from "node:crypto";
import { users, type UserRow } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import { countryName } from "../geo/countries.ts";
import { AppError, validationError } from "../http/errors.ts";
import { activeBan, addBanDevice, banOnOrigin, bannedError, type Origin } from "../moderation/bans.ts";
import { iso } from "../time.ts";
import type { Profile } from "../realtime/protocol.ts";
import { acceptInterests, acceptLanguages, recountTags } from "../users/interests.ts";
import { acceptDisplayName, acceptUsername } from "../users/names/accept.ts";
import { usernameSkeleton } from "../users/names/skeleton.ts";
import { profileText } from "../users/profile.ts";
import { isUniqueViolation } from "./unique-violation.ts";
import { startSession } from "./sessions.ts";

// Sessions live in sessions.ts; these names stay importable from here for existing callers.
export { liveSession, revokeSession, revokeUserSessions, sessionFor, type Session } from "./sessions.ts";

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
  name: string;
  gender: string;
  age: number;
  country_code: string;
  orientation?: string;
  interests?: string[];
  languages?: string[];
  profile?: Profile | null;
}

/** A name that is taken, or only looks like one that is, answers alike: nothing says which. */
const usernameTaken = () =>
  new AppError(409, "username_taken", "This username is already taken", { fields: { username: "This username is already taken" } });

const invalidCredentials = () => new AppError(401, "invalid_credentials", "Invalid username or password");

/** A hash to verify against when the username is unknown, so both failures take as long. */
const decoyHash = Bun.password.hash("decoy password that matches nothing");

/** Where a request came from is unknown (scripts, tests of the services alone). */
export const NO_ORIGIN: Origin = { deviceId: null, addressHash: null };

/** Sign-ups from a banned device, or a banned address when the moderator chose it: 403 `banned`. */
export async function assertOriginNotBanned(db: Db, secret: string, origin: Origin, now = Date.now()): Promise<void> {
  const found = await banOnOrigin(db, origin, now);
  if (found) throw bannedError(secret, found.ban, false);
}

/** For a user whose ban has no row in `bans` (made before bans were recorded). */
export function assertNotBanned(user: UserRow, now = Date.now()): void {
  if (!user.banned) return;
  if (user.bannedUntil !== null && user.bannedUntil <= now) return;
  throw new AppError(403, "banned", "This account is banned", {
    until: user.bannedUntil === null ? null : iso(user.bannedUntil),
  });
}

export async function register(db: Db, secret: string, input: RegisterInput, origin: Origin = NO_ORIGIN) {
  const username = acceptUsername(input.username);
  const name = acceptDisplayName(input.name);
  const country = countryName(input.country_code);
  if (!country) throw validationError({ country_code: "Choose a country" });
  const profile = profileText(input.profile);
  const interests = acceptInterests(input.interests ?? []);
  const languages = acceptLanguages(input.languages ?? []);
  await assertOriginNotBanned(db, secret, origin);
  const usernameKey = username.toLowerCase();
  const skeleton = usernameSkeleton(username);
  const emailKey = input.email.trim().toLowerCase();
  const clash = or(eq(users.usernameKey, usernameKey), eq(users.usernameSkeleton, skeleton));
  if ((await db.select({ id: users.id }).from(users).where(clash).limit(1)).length > 0) throw usernameTaken();
  if ((await db.select({ id: users.id }).from(users).where(eq(users.emailKey, emailKey)).limit(1)).length > 0) {
    throw new AppError(409, "email_taken", "An account with this e-mail already exists", { fields: { email: "An account with this e-mail already exists" } });
  }
  const passwordHash = await Bun.password.hash(input.password);
  const now = Date.now();
  let user: UserRow | undefined;
  try {
    // The account and its interests' counts (the suggestions) in one transaction.
    user = await transaction(db, async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          username,
          usernameKey,
          usernameSkeleton: skeleton,
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
          profile,
          interests: JSON.stringify(interests),
          languages: JSON.stringify(languages),
        })
        .returning();
      await recountTags(tx, [], interests);
      return row!;
    });
  } catch (error) {
    // Two sign-ups racing for one name: the unique index decides.
    if (isUniqueViolation(error)) throw usernameTaken();
    throw error;
  }
  return { token: await startSession(db, secret, user.id, origin), user };
}

/** The account a typed username or e-mail names, if any. */
export async function findAccount(db: Db, identifier: string): Promise<UserRow | undefined> {
  // NFKC as at registration; an account keeps answering to its exact name in any case.
  const key = identifier.normalize("NFKC").trim().toLowerCase();
  const column = key.includes("@") ? users.emailKey : users.usernameKey;
  return (await db.select().from(users).where(eq(column, key)).limit(1))[0];
}

export async function login(db: Db, secret: string, identifier: string, password: string, origin: Origin = NO_ORIGIN) {
  const user = await findAccount(db, identifier);
  const ok = await Bun.password.verify(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !user.passwordHash || !ok) throw invalidCredentials();
  // Only after the password: a 403 never tells a stranger that an account exists.
  const ban = await activeBan(db, user.id);
  if (ban) {
    // The browser a banned person signs in from is theirs: new accounts from it are refused too.
    if (origin.deviceId) await addBanDevice(db, ban.id, origin.deviceId);
    throw bannedError(secret, ban, true);
  }
  assertNotBanned(user);
  return { token: await startSession(db, secret, user.id, origin), user };
}

const guestAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

export async function createGuest(db: Db, secret: string, gender: "male" | "female", origin: Origin = NO_ORIGIN) {
  const now = Date.now();
  await assertOriginNotBanned(db, secret, origin, now);
  for (let attempt = 0; attempt < 20; attempt++) {
    const suffix = Array.from({ length: 6 }, () => guestAlphabet[randomInt(guestAlphabet.length)]).join("");
    const username = `Guest_${suffix}`;
    // "Guest_l0..." and "Guest_1o..." look alike: guests are unique by skeleton too.
    const skeleton = usernameSkeleton(username);
    const [taken] = await db.select({ id: users.id }).from(users).where(or(eq(users.usernameKey, username.toLowerCase()), eq(users.usernameSkeleton, skeleton))).limit(1);
    if (taken) continue;
    const [user] = await transaction(db, (tx) => tx
      .insert(users)
      .values({ username, usernameKey: username.toLowerCase(), usernameSkeleton: skeleton, name: username, gender, isGuest: true, lastSeen: now, createdAt: now, adultConfirmedAt: now })
      // Taken by another sign-up since the check: no row, and the next name is tried.
      .onConflictDoNothing()
      .returning());
    if (!user) continue;
    return { token: await startSession(db, secret, user.id, origin), user };
  }
  throw new AppError(500, "internal", "Could not create a guest name, please try again");
}
