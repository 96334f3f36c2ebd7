// Issue 9, finding 7: a few bytes that declare a huge canvas must be refused before anything is
// decoded, and one account's pictures must never make another person's upload wait.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { gifBomb, pngBomb, webpBomb } from "./crafted.ts";
import { fileOf, uploadForm } from "./fixtures.ts";

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
  test("refuses a 32-byte WebP, a 35-byte GIF and a 15 KB PNG declaring 10950x10950 with 415 in well under a second each", async () => {
    for (const [bytes, name] of [[webpBomb(10950, 10950), "bomb.webp"], [gifBomb(10950, 10950), "bomb.gif"], [pngBomb(10950, 10950), "bomb.png"]] as const) {
      const started = performance.now();
      const res = await send(attacker.token, [fileOf(bytes, name)]);
      const took = performance.now() - started;
      expect(res.status).toBe(415);
      expect(res.body.code).toBe("unsupported_type");
      expect(res.body.error).toContain(name);
      expect(res.body.error).toContain("40 megapixels");
      expect(took).toBeLessThan(1000);
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

  test("finishes another user's small photo upload within 500 ms while one account uploads bombs", async () => {
    const photo = new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: "teal" } }).png().toBuffer());
    // Two requests at once, each with real work (a 25-megapixel picture that does decode) and bombs.
    const bombs = () => [
      fileOf(webpBomb(5000, 5000), "large.webp"),
      fileOf(webpBomb(10950, 10950), "bomb.webp"),
      fileOf(gifBomb(10950, 10950), "bomb.gif"),
    ];
    const attack = Promise.all([1, 2].map(() => send(attacker.token, bombs())));
    await Bun.sleep(50);
    const started = performance.now();
    const res = await t.call("POST", "/api/messages/upload", { token: victim.token, body: uploadForm(friend.user.id, "file", [fileOf(photo, "cat.png")]) });
    const took = performance.now() - started;
    expect(res.status).toBe(201);
    expect(took).toBeLessThan(500);
    for (const answer of await attack) expect([415, 429, 503]).toContain(answer.status);
  });
});
