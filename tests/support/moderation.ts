// People with roles, reports filed straight into the database, the audit rows an action wrote,
// and the console's form posts: one module for every moderation test (tests/moderation/ drives
// the actions, tests/mod/ the console). Roles and reports are written straight into the
// database: the tests are about moderation, and a report's time must be set to test the queue.
import { transaction } from "../../src/storage/index.ts";
import { eq } from "drizzle-orm";
import { auditLog, reports, users, type AuditRow, type NewReportRow, type ReportRow, type UserRow } from "../../src/storage/tables.ts";
import type { Actor } from "../../src/moderation/actions.ts";
import { createGuest, registerUser, type TestApp, type TestResponse } from "./app.ts";

export type Role = "user" | "moderator" | "admin";

/** The operator's command line, as scripts/moderate.ts acts. */
export const cli: Actor = { id: null, role: "cli" };

export async function grantRole(t: TestApp, userId: number, role: Role): Promise<void> {
  await transaction(t.ctx.db, (tx) => tx.update(users).set({ role }).where(eq(users.id, userId)));
}

/** A registered account with a role, and the Actor the console would build for it. */
export async function staff(t: TestApp, role: "moderator" | "admin") {
  const registered = await registerUser(t);
  await grantRole(t, registered.user.id, role);
  const actor: Actor = { id: registered.user.id, role };
  return { ...registered, actor };
}

/** Someone at the console: their id, name, token and session cookie. */
export interface Person {
  id: number;
  username: string;
  token: string;
  cookie: string;
}

export async function person(t: TestApp, role: Role = "user"): Promise<Person> {
  const { token, user } = await registerUser(t);
  if (role !== "user") await grantRole(t, user.id, role);
  return { id: user.id, username: user.username, token, cookie: `sid=${token}` };
}

export async function guest(t: TestApp): Promise<Person> {
  const { token, user } = await createGuest(t);
  return { id: user.id, username: user.username, token, cookie: `sid=${token}` };
}

/** A report of a chat, filed now; `values` set any other column (closedAt closes it as actioned). */
export async function fileReport(t: TestApp, reporterId: number, reportedId: number, values: Partial<NewReportRow> = {}): Promise<ReportRow> {
  const now = Date.now();
  const [row] = await transaction(t.ctx.db, (tx) => tx
    .insert(reports)
    .values({
      reporterId,
      reportedId,
      context: "chat",
      reason: "harassment",
      details: "said awful things",
      transcript: JSON.stringify([{ content: "awful" }]),
      weight: 1,
      status: values.closedAt ? "actioned" : "open",
      createdAt: now,
      updatedAt: now,
      ...values,
    })
    .returning());
  return row!;
}

export const reportRow = async (t: TestApp, id: number): Promise<ReportRow | undefined> => (await t.ctx.db.select().from(reports).where(eq(reports.id, id)).limit(1))[0];

export const userRow = async (t: TestApp, id: number): Promise<UserRow | undefined> => (await t.ctx.db.select().from(users).where(eq(users.id, id)).limit(1))[0];

/** The audit rows about one user, oldest first: the newest is `.at(-1)`. */
export const auditOf = async (t: TestApp, targetUserId: number): Promise<AuditRow[]> =>
  await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, targetUserId)).orderBy(auditLog.id);

// The console, as a browser uses it.

export const ORIGIN = "http://localhost";

export const page = (t: TestApp, who: Person | null, path: string): Promise<TestResponse> =>
  t.call("GET", path, { headers: who ? { cookie: who.cookie } : {} });

/** The CSRF token the console put in its forms for this person's session. */
export async function csrfOf(t: TestApp, who: Person): Promise<string> {
  const r = await page(t, who, "/mod");
  const token = /name="csrf" value="([^"]+)"/.exec(r.text)?.[1] ?? /name="csrf" value="([^"]+)"/.exec((await page(t, who, `/mod/users/${who.id}`)).text)?.[1];
  if (!token) throw new Error("no CSRF token on the console's pages");
  return token;
}

/** A form post as the browser sends it: our Origin, the session cookie, repeated fields allowed. */
export function post(t: TestApp, who: Person | null, path: string, fields: [string, string][] | Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
  return t.call("POST", path, {
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...(who ? { cookie: who.cookie } : {}), ...headers },
  });
}
