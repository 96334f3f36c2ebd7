// People, reports and form posts for the console tests, on top of tests/support/app.ts. Roles and
// reports are written straight into the database: the tests are about the console, and a
// report's time must be set to test the queue's order.
import { eq } from "drizzle-orm";
import { auditLog, reports, users, type NewReportRow } from "../../db/schema.ts";
import { registerUser, type TestApp, type TestResponse } from "../support/app.ts";

export const ORIGIN = "http://localhost";

export interface Person {
  id: number;
  username: string;
  token: string;
  cookie: string;
}

export async function person(t: TestApp, role: "user" | "moderator" | "admin" = "user"): Promise<Person> {
  const { token, user } = await registerUser(t);
  if (role !== "user") t.ctx.db.update(users).set({ role }).where(eq(users.id, user.id)).run();
  return { id: user.id, username: user.username, token, cookie: `sid=${token}` };
}

export async function guest(t: TestApp): Promise<Person> {
  const r = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
  if (r.status !== 201) throw new Error(`guest failed: ${r.status} ${r.text}`);
  const { token, user } = r.body.data;
  return { id: user.id, username: user.username, token, cookie: `sid=${token}` };
}

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

export function report(t: TestApp, reporter: Person, reported: Person, values: Partial<NewReportRow> = {}) {
  const now = Date.now();
  return t.ctx.db
    .insert(reports)
    .values({ reporterId: reporter.id, reportedId: reported.id, context: "chat", reason: "spam", createdAt: now, updatedAt: now, ...values })
    .returning()
    .get();
}

export const reportRow = (t: TestApp, id: number) => t.ctx.db.select().from(reports).where(eq(reports.id, id)).get();

export const userRow = (t: TestApp, id: number) => t.ctx.db.select().from(users).where(eq(users.id, id)).get();

/** The audit rows about one user, oldest first. */
export const auditOf = (t: TestApp, targetUserId: number) => t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, targetUserId)).orderBy(auditLog.id).all();
