// Stores text messages straight through the service: fast set-up for tests that read them back.
import { storeText } from "../../src/messages/service.ts";
import { requireUser } from "../../src/users/service.ts";
import type { TestApp } from "../support/app.ts";

export function sendText(t: TestApp, senderId: number, receiverId: number, content: string): number {
  const sender = requireUser(t.ctx.db, senderId);
  return storeText(t.ctx.db, t.ctx.clock, sender, { receiverId, content }).row.id;
}

export function sendTexts(t: TestApp, senderId: number, receiverId: number, count: number, prefix = "message"): number[] {
  return Array.from({ length: count }, (_, i) => sendText(t, senderId, receiverId, `${prefix} ${i + 1}`));
}
