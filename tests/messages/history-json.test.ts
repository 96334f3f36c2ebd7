// The history route writes its JSON by hand (src/messages/history.ts); it must say exactly what
// toMessage gives to JSON.stringify, for every kind of row.
import { describe, expect, test } from "bun:test";
import type { MessageRow } from "../../db/schema.ts";
import { messageJson } from "../../src/messages/history.ts";
import { toMessage } from "../../src/messages/service.ts";

const base: MessageRow = {
  id: 7,
  senderId: 3,
  receiverId: 9,
  pairLo: 3,
  pairHi: 9,
  content: 'quotes " and \\ backslash, emoji 😀, line\nbreak, \u2028 and </script>',
  messageType: "text",
  fileName: null,
  filePath: null,
  fileSize: null,
  fileMime: null,
  groupId: null,
  clientMessageId: null,
  createdAt: Date.UTC(2026, 10, 22, 10, 31, 0, 123),
  deliveredAt: null,
  readAt: null,
  removedAt: null,
} as MessageRow;

const rows: [string, MessageRow][] = [
  ["unsent text", base],
  ["delivered and read, with a client id", { ...base, deliveredAt: base.createdAt + 5, readAt: base.createdAt + 900, clientMessageId: "c-1" }],
  ["a file in a group", { ...base, messageType: "image", content: "", fileName: "a \"b\".png", filePath: "2026/11/x.png", fileSize: 12345, fileMime: "image/png", groupId: "g1" }],
  ["removed by a moderator", { ...base, messageType: "file", fileName: "x.pdf", filePath: "p/x.pdf", fileSize: 1, removedAt: base.createdAt + 1 }],
];

describe("messageJson", () => {
  for (const [label, row] of rows) {
    test(`equals toMessage for ${label}, from either side`, () => {
      for (const viewer of [row.senderId, row.receiverId]) {
        expect(JSON.parse(messageJson(row, "Ann \"A\"", viewer))).toEqual(JSON.parse(JSON.stringify(toMessage(row, "Ann \"A\"", viewer))));
      }
    });
  }
});
