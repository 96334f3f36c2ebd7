// Stores text messages straight through the service: fast set-up for tests that read them back.
import { storeText } from "../../src/messages/service.ts";
import { requireUser } from "../../src/users/service.ts";
import type { TestApp } from "../support/app.ts";

export async function sendText(t: TestApp, senderId: number, receiverId: number, content: string): Promise<number> {
  const sender = await requireUser(t.ctx.db, senderId);
  return (await storeText(t.ctx.db, t.ctx.clock, sender, { receiverId, content })).row.id;
}

export async function sendTexts(t: TestApp, senderId: number, receiverId: number, count: number, prefix = "message"): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await sendText(t, senderId, receiverId, `${prefix} ${i + 1}`));
  return ids;
}
