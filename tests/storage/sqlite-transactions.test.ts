// The asynchronous transactions on SQLite's one connection (src/storage/sqlite-transactions.ts),
// on a real database file: each body's writes commit or roll back together even while other
// requests run between its awaits, transactions take turns, a nested one is a savepoint, and
// asking the database instead of the tx inside a body is refused instead of hanging.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interestTags } from "../../db/schema.ts";
import { openStorage, type Db } from "../../src/db.ts";
import { perDatabase } from "../../src/storage/per-database.ts";
import { atomic, databaseOf, transaction } from "../../src/storage/sqlite-transactions.ts";
import { elsewhere } from "../support/until.ts";

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tx-"));
  db = openStorage(dir).db;
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const tags = async () => (await db.select().from(interestTags).orderBy(interestTags.tag)).map((row) => `${row.tag}:${row.uses}`);
/** A turn of the event loop: whatever else is queued (other requests) runs meanwhile. */

describe("transactions on SQLite, asynchronous", () => {
  test("a body's writes commit together, and a throw anywhere in it rolls all of them back", async () => {
    expect(await transaction(db, async (tx) => {
      await tx.insert(interestTags).values({ tag: "chess", uses: 1 });
      await elsewhere();
      await tx.insert(interestTags).values({ tag: "hiking", uses: 2 });
      return "done";
    })).toBe("done");
    const failed = transaction(db, async (tx) => {
      await tx.update(interestTags).set({ uses: 9 }).where(eq(interestTags.tag, "chess"));
      await elsewhere();
      await tx.insert(interestTags).values({ tag: "chess", uses: 1 }); // primary key taken
    });
    await expect(failed).rejects.toThrow();
    expect(await tags()).toEqual(["chess:1", "hiking:2"]);
    expect(db.$client.inTransaction).toBe(false);
  });

  test("another request's write while a body awaits waits its turn, and survives that body's rollback", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = transaction(db, async (tx) => {
      await tx.insert(interestTags).values({ tag: "first", uses: 1 });
      order.push("first wrote");
      await held;
      throw new Error("first gives up");
    });
    await elsewhere();
    const second = transaction(db, async (tx) => {
      order.push("second began");
      await tx.insert(interestTags).values({ tag: "second", uses: 1 });
    });
    await elsewhere();
    expect(order).toEqual(["first wrote"]);
    release();
    await expect(first).rejects.toThrow("first gives up");
    await second;
    expect(order).toEqual(["first wrote", "second began"]);
    expect(await tags()).toEqual(["second:1"]);
  });

  test("a failed transaction does not stop the ones queued after it", async () => {
    const results = await Promise.allSettled([
      transaction(db, async () => {
        throw new Error("no");
      }),
      transaction(db, (tx) => tx.insert(interestTags).values({ tag: "after", uses: 1 })),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
    expect(await tags()).toEqual(["after:1"]);
  });

  test("a transaction inside one is a savepoint: its throw rolls back only its own writes", async () => {
    await transaction(db, async (tx) => {
      await tx.insert(interestTags).values({ tag: "outer", uses: 1 });
      await expect(
        transaction(tx, async (inner) => {
          await inner.insert(interestTags).values({ tag: "inner", uses: 1 });
          throw new Error("inner only");
        }),
      ).rejects.toThrow("inner only");
      await transaction(tx, (inner) => inner.insert(interestTags).values({ tag: "kept", uses: 1 }));
    });
    expect(await tags()).toEqual(["kept:1", "outer:1"]);
  });

  test("atomic joins the transaction whose tx it is given, and opens one when given the database", async () => {
    await transaction(db, async (tx) => {
      await atomic(tx, (same) => {
        expect(same).toBe(tx);
        return same.insert(interestTags).values({ tag: "joined", uses: 1 });
      });
    });
    await expect(
      atomic(db, async (tx) => {
        await tx.insert(interestTags).values({ tag: "opened", uses: 1 });
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await tags()).toEqual(["joined:1"]);
  });

  test("asking the database for a transaction inside a body is refused, not a wait for itself", async () => {
    const nested = transaction(db, async (tx) => {
      await tx.insert(interestTags).values({ tag: "outer", uses: 1 });
      await transaction(db, (again) => again.insert(interestTags).values({ tag: "never", uses: 1 }));
    });
    await expect(nested).rejects.toThrow("A transaction is already open here: pass its tx");
    expect(await tags()).toEqual([]);
  });

  test("a transaction's handle shares its database's prepared statements and in-memory helpers", async () => {
    const helper = perDatabase((owner) => ({ owner }));
    await transaction(db, (tx) => {
      expect(tx).not.toBe(db);
      expect(databaseOf(tx)).toBe(db);
      expect(helper(tx)).toBe(helper(db));
    });
  });
});
