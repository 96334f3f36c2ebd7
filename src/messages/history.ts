// A conversation's page, newest first from a time cursor: one range read of the
// messages_conversation index (pair_lo, pair_hi, created_at), so its cost does not grow with the
// conversation. Prepared once per database.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { messages, users, type MessageRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";

const p = sql.placeholder;

function prepare(db: Db) {
  return {
    page: db
      .select()
      .from(messages)
      .where(and(eq(messages.pairLo, p("lo")), eq(messages.pairHi, p("hi")), lt(messages.createdAt, p("before"))))
      .orderBy(desc(messages.createdAt))
      .limit(p("limit"))
      .prepare(),
    names: db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, [p("a"), p("b")]))
      .prepare(),
    name: db.select({ name: users.name }).from(users).where(eq(users.id, p("id"))).prepare(),
  };
}

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

/** Up to `limit` messages between the two, newest first, older than `before` when given. */
export function historyPage(db: Db, userId: number, contactId: number, limit: number, before = Number.MAX_SAFE_INTEGER): MessageRow[] {
  return statements(db).page.all({ lo: Math.min(userId, contactId), hi: Math.max(userId, contactId), before, limit });
}

/** The two participants' names: every message of a conversation was sent by one of them. */
export function participantNames(db: Db, a: number, b: number): Map<number, string> {
  return new Map(statements(db).names.all({ a, b }).map((r) => [r.id, r.name]));
}

/** A user's name, or undefined when there is no such user: existence and name in one read. */
export function userName(db: Db, id: number): string | undefined {
  return statements(db).name.get({ id })?.name;
}

