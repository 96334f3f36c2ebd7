// The insert no longer reads its row back (no RETURNING): the row it hands on is built from what it
// bound. It must equal what the database holds, or acks and deliveries would differ from history.
import { expect, test } from "bun:test";
import { historyPage } from "../../src/messages/history.ts";
import { insertMessage } from "../../src/messages/service.ts";
import { transaction } from "../../src/storage/index.ts";
import { makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp();

test("the row an insert hands on is the row stored, for a text and for a file", async () => {
  const a = await registerUser(t);
  const b = await registerUser(t);
  const text = await transaction(t.ctx.db, (tx) => insertMessage(tx, { senderId: a.user.id, receiverId: b.user.id, content: "hello", messageType: "text", createdAt: 1_700_000_000_001, clientMessageId: "row-check" }));
  const file = await transaction(t.ctx.db, (tx) =>
    insertMessage(tx, {
    senderId: b.user.id,
    receiverId: a.user.id,
    content: "",
    messageType: "image",
    fileName: "cat.png",
    filePath: "uploads/cat.png",
    fileSize: 1234,
    fileMime: "image/png",
    groupId: "g-1",
    createdAt: 1_700_000_000_002,
    deliveredAt: 1_700_000_000_003,
  }),
  );
  const stored = await historyPage(t.ctx.db, a.user.id, b.user.id, 10);
  expect(stored.find((row) => row.id === text.id)).toStrictEqual(text);
  expect(stored.find((row) => row.id === file.id)).toStrictEqual(file);
});
