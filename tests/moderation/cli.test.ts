// scripts/moderate.ts as the operator runs it: another process on the same DATA_DIR. Its ban
// reaches this server's open socket through the ban watcher (a 2 s tick); roles and unbans go
// through the same actions and the audit log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/storage/tables.ts";
import { watchBans } from "../../src/moderation/watch.ts";
import { loginAs, registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { auditOf } from "../support/moderation.ts";
import { runModerateScript } from "../support/moderate-script.ts";

const t = listeningApp();
const WATCH_MS = 2000;
let stopWatching: () => void;
beforeAll(async () => {
  stopWatching = await watchBans(t.ctx, WATCH_MS);
});
afterAll(() => stopWatching());

// On a PostgreSQL run the app's own database (the run's is in process.env).
const moderate = (...args: string[]) =>
  runModerateScript({ DATA_DIR: t.dataDir, JWT_SECRET: t.ctx.config.secret, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}) }, ...args);

const roleOf = async (userId: number) => (await t.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, userId)))[0]!.role;

describe("bun scripts/moderate.ts", () => {
  // The bound is the watcher's: it reads the database every WATCH_MS, so a ban written by another
  // process reaches the socket a tick later. Counted from the process's exit (its start-up is not
  // the watcher's), with room for a loaded machine: five ticks.
  test("ban with days and a reason reaches an open socket of the running server through the watcher's tick: `banned`, then 4403", async () => {
    const target = await connectedUser(t);
    const result = await moderate("ban", target.user.username, "7", "Repeated", "spam");
    expect(result).toMatchObject({ code: 0, err: "" });
    const written = Date.now();
    const closed = await target.s.closed;
    expect(Date.now() - written).toBeLessThan(5 * WATCH_MS);
    expect(closed.code).toBe(4403);
    expect(target.s.frames.find((f) => f.event === "banned")?.data).toMatchObject({ reason: "Repeated spam", until: expect.any(String) });
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ actorId: null, action: "ban", reason: "Repeated spam" });
    const login = await loginAs(t, target.user.username);
    expect(login.body).toMatchObject({ code: "banned", reason: "Repeated spam" });
  });

  test("unban lets the user sign in again", async () => {
    const target = await registerUser(t);
    expect((await moderate("ban", target.user.username)).code).toBe(0);
    expect((await moderate("unban", target.user.username, "Reviewed")).code).toBe(0);
    const login = await loginAs(t, target.user.username);
    expect(login.status).toBe(200);
  });

  test("grant makes a moderator or an admin and revoke makes a user again, each in the audit log", async () => {
    const target = await registerUser(t);
    expect((await moderate("grant", target.user.username, "moderator")).code).toBe(0);
    expect(await roleOf(target.user.id)).toBe("moderator");
    expect((await moderate("grant", target.user.username, "admin")).code).toBe(0);
    expect(await roleOf(target.user.id)).toBe("admin");
    expect((await moderate("revoke", target.user.username)).code).toBe(0);
    expect(await roleOf(target.user.id)).toBe("user");
    expect((await auditOf(t, target.user.id)).map((r) => r.action)).toEqual(["grant_role", "grant_role", "revoke_role"]);
  });

  test("refuses an unknown user, an unknown role and a ban length other than 1, 7 or 30 days", async () => {
    const target = await registerUser(t);
    expect((await moderate("ban", "no_such_user_here")).code).toBe(1);
    expect((await moderate("grant", target.user.username, "king")).code).toBe(2);
    const odd = await moderate("ban", target.user.username, "3");
    expect(odd.code).toBe(2);
    expect(odd.err).toContain("1, 7 or 30");
    expect(await auditOf(t, target.user.id)).toHaveLength(0);
  });
});
