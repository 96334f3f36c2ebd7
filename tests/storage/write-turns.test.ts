// Every write takes its turn (src/storage/index.ts, docs/DECISIONS.md "Issue 22"): services hold the
// database without insert/update/delete, so a lone write goes through `transaction(db, ...)` and
// waits for a transaction another request holds open, instead of landing inside it on SQLite's one
// connection and vanishing with its rollback.
import { afterAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { interestTags, users } from "../../src/storage/tables.ts";
import { transaction } from "../../src/storage/index.ts";
import { setLocale } from "../../src/users/service.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { elsewhere } from "../support/until.ts";

const t = makeTestApp();
afterAll(() => t.close());

/** A turn of the event loop: whatever else is queued (other requests) runs meanwhile. */

test("the database services hold has no insert, update or delete; a transaction's handle has", async () => {
  const db = t.ctx.db;
  // Never called: the compiler's refusal is what is tested.
  const refused = () => [
    // @ts-expect-error a lone write must take its turn: transaction(db, (tx) => tx.insert(...))
    db.insert(interestTags),
    // @ts-expect-error as above
    db.update(interestTags),
    // @ts-expect-error as above
    db.delete(interestTags),
  ];
  expect(typeof refused).toBe("function");
  await transaction(db, async (tx) => {
    await tx.insert(interestTags).values({ tag: "allowed", uses: 1 });
    await tx.delete(interestTags).where(eq(interestTags.tag, "allowed"));
  });
});

test("a service's lone write made while another request's transaction is open survives that transaction's rollback", async () => {
  const { user } = await registerUser(t);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const other = transaction(t.ctx.db, async (tx) => {
    await tx.insert(interestTags).values({ tag: "rolled back", uses: 1 });
    await held;
    throw new Error("the other request gives up");
  });
  await elsewhere();
  // A real service write (Settings: the language), made while `other` is open between its awaits.
  const written = setLocale(t.ctx.db, user.id, "de");
  await elsewhere();
  release();
  // Awaited, not `expect(other).rejects`: bun:test's matcher waits on a still-pending promise in a way
  // that stalls postgres.js's socket reads (0.9 s, or for good; reproduced with postgres.js alone).
  expect(await other.then(() => "committed", (error: Error) => error.message)).toBe("the other request gives up");
  expect((await written).locale).toBe("de");
  const [row] = await t.ctx.db.select({ locale: users.locale }).from(users).where(eq(users.id, user.id)).limit(1);
  expect(row?.locale).toBe("de");
  expect(await t.ctx.db.select().from(interestTags).where(eq(interestTags.tag, "rolled back"))).toEqual([]);
});
