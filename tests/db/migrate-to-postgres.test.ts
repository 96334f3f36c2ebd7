// scripts/migrate-to-postgres.ts: every row of every table reaches PostgreSQL unchanged (the row
// types of both schema files are the same, so the rows compare as they are), ids are kept and new
// ids continue after them, and a target that already holds users is refused.
import { transaction } from "../../src/storage/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engine } from "../../src/storage/engine.ts";
import { getTableName, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as pg from "../../db/pg/schema.ts";
import * as lite from "../../db/schema.ts";
import { COPY_ORDER, copySqliteToPostgres } from "../../scripts/migrate-to-postgres.ts";
import { storeFiles, storeText, markRead } from "../../src/messages/service.ts";
import { banUser, warnUser } from "../../src/moderation/actions.ts";
import { requireUser } from "../../src/users/service.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { cli, fileReport } from "../support/moderation.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";

const t = makeTestApp();
let target: TestDatabase;
beforeAll(async () => {
  target = await freshDatabase();
});
afterAll(async () => {
  await target?.drop();
  await t.close();
});

/** Rows in a stable order whatever the engine returned them in. */
const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

// The source is filled through the services, which speak SQLite only in the SQLite pass.
describe.skipIf(engine !== "sqlite")("the copy from SQLite", () => {
  test("every row of every table is copied unchanged, ids included, and new ids continue after them", async () => {
    const [a, b, c] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    const db = t.ctx.db;
    const alice = await requireUser(db, a.user.id);
    for (let i = 0; i < 30; i++) await storeText(db, t.ctx.clock, alice, { receiverId: b.user.id, content: `hello ${i} ✓ "quoted"`, clientMessageId: `m-${i}` });
    await storeFiles(db, t.ctx.clock, b.user.id, a.user.id, [
      { content: "cat.png", messageType: "image", fileName: "cat.png", filePath: "files/cat.png", fileSize: 1234, fileMime: "image/png", groupId: "g1" },
    ]);
    await markRead(db, b.user.id, a.user.id, Date.now());
    const now = Date.now();
    await transaction(db, (tx) => tx.insert(lite.blocks).values({ blockerId: c.user.id, blockedId: a.user.id, createdAt: now }));
    await transaction(db, (tx) => tx.insert(lite.rouletteBlocks).values({ blockerId: a.user.id, blockedId: c.user.id, rouletteId: "r-1", createdAt: now }));
    await transaction(db, (tx) => tx.insert(lite.userDevices).values({ userId: a.user.id, deviceId: "device-a", lastSeenAt: now }));
    await transaction(db, (tx) => tx.insert(lite.deviceCarriers).values({ userId: c.user.id, carrierId: a.user.id }));
    await transaction(db, (tx) => tx.insert(lite.callMeetings).values({ userLo: a.user.id, userHi: b.user.id, answeredAt: now }));
    await transaction(db, (tx) => tx.insert(lite.rouletteSessions).values({ id: "r-2", userA: a.user.id, userB: c.user.id, startedAt: now - 5000, endedAt: now, lines: "[]" }));
    const report = await fileReport(t, b.user.id, c.user.id, { weight: 0.25 });
    await warnUser(t.ctx, cli, a.user.id, "be kind");
    const ban = await banUser(t.ctx, cli, c.user.id, { days: 7, reason: "spam", banAddress: false }, [report.id]);
    await transaction(db, (tx) => tx.insert(lite.banDevices).values({ banId: ban.id, deviceId: "device-c" }));
    await transaction(db, (tx) => tx.insert(lite.appeals).values({ banId: ban.id, userId: c.user.id, text: "sorry", createdAt: now }));
    const firstMessage = db.select().from(lite.messages).limit(1).all()[0]!;
    await transaction(db, (tx) => tx.insert(lite.messageReactions).values({ messageId: firstMessage.id, userId: b.user.id, emoji: "👍", createdAt: now }));
    await transaction(db, (tx) => tx.insert(lite.interestTags).values({ tag: "chess", uses: 5 }));
    const session = db.select().from(lite.sessions).limit(1).all()[0]!;
    await transaction(db, (tx) => tx.insert(lite.pushSubscriptions)
      .values({ userId: session.userId, sessionId: session.id, endpoint: "https://fcm.googleapis.com/fcm/send/x", p256dh: "key", auth: "secret", previews: true, createdAt: now }));

    const lines: string[] = [];
    const { counts } = await copySqliteToPostgres(t.dataDir, target.url, (line) => lines.push(line));
    expect(lines.length).toBe(COPY_ORDER.length);

    const client = postgres(target.url, { max: 1, onnotice: () => {} });
    const copy = drizzle(client, { schema: pg });
    try {
      for (const key of COPY_ORDER) {
        const source = db.select().from(lite[key] as never).all() as unknown[];
        const copied = (await copy.select().from(pg[key] as never)) as unknown[];
        expect(source.length).toBeGreaterThan(0);
        expect(counts[getTableName(pg[key] as Table)]).toBe(source.length);
        expect(sorted(copied)).toEqual(sorted(source));
      }
      // Identity sequences moved past the copied ids.
      const [user] = await copy
        .insert(pg.users)
        .values({ username: "late", usernameKey: "late", name: "Late", gender: "female", lastSeen: now, createdAt: now })
        .returning({ id: pg.users.id });
      expect(user!.id).toBeGreaterThan(c.user.id);
      const [message] = await copy
        .insert(pg.messages)
        .values({ senderId: a.user.id, receiverId: b.user.id, pairLo: a.user.id, pairHi: b.user.id, content: "after", messageType: "text", createdAt: now })
        .returning({ id: pg.messages.id });
      expect(message!.id).toBeGreaterThan(Math.max(...db.select({ id: lite.messages.id }).from(lite.messages).all().map((r) => r.id)));
    } finally {
      await client.end();
    }
    // A second copy into a database that holds users is refused and changes nothing.
    await expect(copySqliteToPostgres(t.dataDir, target.url)).rejects.toThrow(/already holds/);
  });
});
