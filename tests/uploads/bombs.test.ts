// Issue 9, finding 7: a few bytes that declare a huge canvas must be refused before anything is
// decoded, and one account's pictures must never make another person's upload wait.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { gifBomb, pngBomb, webpBomb } from "./crafted.ts";
import { fileOf, uploadForm } from "./fixtures.ts";
import { DecodeQueue } from "../../src/uploads/decode-queue.ts";
import { until } from "../support/until.ts";

/** The decode queue, with a record of who asked for a slot, and when each job started and ended. */
class WatchedQueue extends DecodeQueue {
  readonly log: string[] = [];
  override run<T>(owner: string, job: () => Promise<T>): Promise<T> {
    this.log.push(`${owner} asks`);
    return super.run(owner, async () => {
      this.log.push(`${owner} starts`);
      try {
        return await job();
      } finally {
        this.log.push(`${owner} ends`);
      }
    });
  }
}

let t: TestApp;
let attacker: Awaited<ReturnType<typeof registerUser>>;
let victim: Awaited<ReturnType<typeof registerUser>>;
let friend: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = makeTestApp();
  [attacker, victim, friend] = [await registerUser(t), await registerUser(t), await registerUser(t)];
});
afterAll(() => t.close());

const send = (token: string, files: File[]) =>
  t.call("POST", "/api/messages/upload-multiple", { token, body: uploadForm(friend.user.id, "files", files) });

describe("decode bombs", () => {
  // The refusal names the size the header declares: it comes from the header check that runs
  // before any decode (uploads/images.ts), not from a decode that failed or ran out of memory.
  test("refuses a 32-byte WebP, a 35-byte GIF and a 15 KB PNG declaring 10950x10950 with 415 from their header, naming the 40-megapixel limit", async () => {
    for (const [bytes, name] of [[webpBomb(10950, 10950), "bomb.webp"], [gifBomb(10950, 10950), "bomb.gif"], [pngBomb(10950, 10950), "bomb.png"]] as const) {
      const res = await send(attacker.token, [fileOf(bytes, name)]);
      expect(res.status).toBe(415);
      expect(res.body.code).toBe("unsupported_type");
      expect(res.body.error).toContain(name);
      expect(res.body.error).toContain("10950x10950 pixels");
      expect(res.body.error).toContain("40 megapixels");
    }
  });

  test("refuses an animation with more frames than allowed, saying how many are allowed", async () => {
    const res = await send(attacker.token, [fileOf(gifBomb(2, 2, 1001), "long.gif")]);
    expect(res.status).toBe(415);
    expect(res.body.error).toContain("1001 frames");
  });

  test("accepts a picture just under 40 megapixels", async () => {
    const res = await send(attacker.token, [fileOf(webpBomb(6300, 6300), "big-but-fine.webp")]);
    expect(res.status).toBe(201);
    expect(res.body.messages[0].message_type).toBe("image");
  });

  test("decodes another user's small photo beside one account's 25-megapixel decodes, without waiting for them", async () => {
    const photo = new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: "teal" } }).png().toBuffer());
    const queue = new WatchedQueue();
    const real = t.ctx.uploads.decoder;
    t.ctx.uploads.decoder = queue;
    try {
      // Two requests at once, each with real work (a 25-megapixel picture that does decode) and bombs.
      const bombs = () => [
        fileOf(webpBomb(5000, 5000), "large.webp"),
        fileOf(webpBomb(10950, 10950), "bomb.webp"),
        fileOf(gifBomb(10950, 10950), "bomb.gif"),
      ];
      const attack = Promise.all([1, 2].map(() => send(attacker.token, bombs())));
      // The attack is under way: one of its decodes holds a slot, the other waits (one per account).
      await until(() => queue.stats.running === 1 && queue.stats.waiting === 1, "the attacker's two decodes being queued");
      const res = await t.call("POST", "/api/messages/upload", { token: victim.token, body: uploadForm(friend.user.id, "file", [fileOf(photo, "cat.png")]) });
      expect(res.status).toBe(201);
      const me = String(victim.user.id);
      const asked = queue.log.indexOf(`${me} asks`);
      // When the victim's picture asked for a slot, an attacker decode was running and one waiting...
      expect(queue.log.slice(0, asked).filter((e) => e.endsWith(" starts")).length - queue.log.slice(0, asked).filter((e) => e.endsWith(" ends")).length).toBe(1);
      // ...and it started at once, before anything else happened in the queue.
      expect(queue.log[asked + 1]).toBe(`${me} starts`);
      for (const answer of await attack) expect([415, 429, 503]).toContain(answer.status);
    } finally {
      t.ctx.uploads.decoder = real;
    }
  });
});
