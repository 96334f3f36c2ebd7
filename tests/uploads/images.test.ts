import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { aliceAndBob, aliceSends, animatedGif, jpegWithExif } from "./fixtures.ts";

const u = aliceAndBob();

async function sendImage(bytes: Uint8Array<ArrayBuffer>, name: string) {
  const res = await aliceSends(u, bytes, name);
  expect(res.status).toBe(201);
  return { message: res.body.message, stored: readFileSync(join(u.t.dataDir, "uploads", res.body.message.file_path)) };
}

describe("photo metadata", () => {
  test("stores a JPEG photo without its EXIF", async () => {
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const { message, stored } = await sendImage(original, "photo.jpg");
    expect(message.message_type).toBe("image");
    expect(message.file_path).toEndWith(".jpg");
    const after = await sharp(stored).metadata();
    expect(after.format).toBe("jpeg");
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(stored.includes("secret location")).toBe(false);
    expect(message.file_size).toBe(stored.length);
  });

  test("applies the camera's orientation to the pixels before dropping the tag", async () => {
    // Orientation 6 means "rotate 90° clockwise to view": a 16x8 sensor image shows as 8x16.
    const { stored } = await sendImage(await jpegWithExif(16, 8, 6), "portrait.jpg");
    const after = await sharp(stored).metadata();
    expect([after.width, after.height]).toEqual([8, 16]);
    expect(after.orientation).toBeUndefined();
  });

  test("strips metadata from PNG and WebP images too", async () => {
    const base = sharp({ create: { width: 6, height: 6, channels: 3, background: "blue" } }).withMetadata({ exif: { IFD0: { Copyright: "secret location" } } });
    const png = new Uint8Array(await base.clone().png().toBuffer());
    const webp = new Uint8Array(await base.clone().webp().toBuffer());
    expect((await sharp(png).metadata()).exif).toBeDefined();
    for (const [bytes, ext] of [[png, "png"], [webp, "webp"]] as const) {
      const { message, stored } = await sendImage(bytes, `image.${ext}`);
      expect(message.file_path).toEndWith(`.${ext}`);
      expect((await sharp(stored).metadata()).exif).toBeUndefined();
      expect(stored.includes("secret location")).toBe(false);
    }
  });

  test("cleans every photo when several arrive at the same moment", async () => {
    const photo = await jpegWithExif(32, 16);
    const results = await Promise.all([1, 2, 3, 4].map((i) => sendImage(photo, `burst-${i}.jpg`)));
    for (const { message, stored } of results) {
      expect(message.message_type).toBe("image");
      expect((await sharp(stored).metadata()).exif).toBeUndefined();
    }
  });

  test("re-encodes an animated GIF and keeps its frames and timing", async () => {
    const twoFrames = await animatedGif();
    expect((await sharp(twoFrames, { animated: true }).metadata()).pages).toBe(2);
    const { message, stored } = await sendImage(twoFrames, "dance.gif");
    expect(message.message_type).toBe("image");
    const after = await sharp(stored, { animated: true }).metadata();
    expect([after.format, after.pages, after.delay]).toEqual(["gif", 2, [100, 100]]);
  });
});
