// Issue 9, finding 8: whatever the format, no location reaches the other person. Animated GIF
// and WebP keep their animation; TIFF and AVIF become JPEG; what cannot be cleaned is refused.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { heicHeader, tiffWithGps, withGifXmp } from "./crafted.ts";
import { aliceAndBob, aliceSends, animatedGif, fileOf, uploadForm } from "./fixtures.ts";

const GPS_EXIF = { IFD0: { Copyright: "secret location" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 31/1 12/1" } };

const u = aliceAndBob();

const stored = (relPath: string) => readFileSync(join(u.t.dataDir, "uploads", relPath));

const sendImage = (bytes: Uint8Array<ArrayBuffer>, name: string) => aliceSends(u, bytes, name);

async function animatedWebp(): Promise<Uint8Array<ArrayBuffer>> {
  const frame = async (colour: string) => sharp({ create: { width: 4, height: 4, channels: 3, background: colour } }).png().toBuffer();
  const joined = sharp([await frame("red"), await frame("blue")], { join: { animated: true } });
  return new Uint8Array(await joined.webp({ delay: [80, 80], loop: 0 }).withExif(GPS_EXIF).toBuffer());
}

describe("chat pictures in every format", () => {
  test("re-encodes an animated GIF without its XMP location, keeping both frames and their timing", async () => {
    const original = withGifXmp(await animatedGif());
    expect(Buffer.from(original).includes("GPSLatitude")).toBe(true);
    const res = await sendImage(original, "dance.gif");
    expect(res.status).toBe(201);
    expect(res.body.message.file_path).toEndWith(".gif");
    const file = stored(res.body.message.file_path);
    expect(file.includes("GPSLatitude")).toBe(false);
    const after = await sharp(file, { animated: true }).metadata();
    expect(after.pages).toBe(2);
    expect(after.delay).toEqual([100, 100]);
    expect(after.xmp).toBeUndefined();
  });

  test("re-encodes an animated WebP without its EXIF, keeping its animation", async () => {
    const res = await sendImage(await animatedWebp(), "loop.webp");
    expect(res.status).toBe(201);
    const file = stored(res.body.message.file_path);
    const after = await sharp(file, { animated: true }).metadata();
    expect(after.pages).toBe(2);
    expect(after.exif).toBeUndefined();
    expect(file.includes("secret location")).toBe(false);
  });

  test("turns a TIFF with a GPS IFD into a JPEG picture without it", async () => {
    const original = tiffWithGps();
    expect(Buffer.from(original).includes("secret location")).toBe(true);
    const res = await sendImage(original, "scan.tif");
    expect(res.status).toBe(201);
    expect(res.body.message.message_type).toBe("image");
    expect(res.body.message.file_name).toBe("scan.tif");
    expect(res.body.message.file_path).toEndWith(".jpg");
    const file = stored(res.body.message.file_path);
    const after = await sharp(file).metadata();
    expect(after.format).toBe("jpeg");
    expect(after.exif).toBeUndefined();
    expect(file.includes("secret location")).toBe(false);
  });

  test("turns an AVIF with EXIF GPS into a JPEG picture without it", async () => {
    const original = new Uint8Array(await sharp({ create: { width: 12, height: 10, channels: 3, background: "green" } }).avif().withExif(GPS_EXIF).toBuffer());
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await sendImage(original, "photo.avif");
    expect(res.status).toBe(201);
    expect(res.body.message.file_path).toEndWith(".jpg");
    const file = stored(res.body.message.file_path);
    expect((await sharp(file).metadata()).exif).toBeUndefined();
    expect(file.includes("secret location")).toBe(false);
  });

  test("keeps transparency when it turns a TIFF into a picture browsers show", async () => {
    const original = new Uint8Array(await sharp({ create: { width: 6, height: 6, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } }).tiff({ compression: "lzw" }).toBuffer());
    const res = await sendImage(original, "overlay.tiff");
    expect(res.status).toBe(201);
    expect(res.body.message.file_path).toEndWith(".png");
    expect((await sharp(stored(res.body.message.file_path)).metadata()).hasAlpha).toBe(true);
  });

  test("refuses a HEIC photo it cannot decode with 415, since its location could not be removed", async () => {
    const res = await sendImage(heicHeader(), "IMG_0001.heic");
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_type");
    expect(res.body.error).toContain("IMG_0001.heic");
  });
});

describe("avatars in every format", () => {
  test("re-encodes an animated GIF avatar without its XMP location, keeping the animation", async () => {
    const res = await u.t.call("POST", "/api/users/avatar/upload", { token: u.alice.token, body: uploadForm(undefined, "avatar", [fileOf(withGifXmp(await animatedGif()), "me.gif")]) });
    expect(res.status).toBe(200);
    const file = readFileSync(join(u.t.dataDir, res.body.avatar_url));
    expect(file.includes("GPSLatitude")).toBe(false);
    expect((await sharp(file, { animated: true }).metadata()).pages).toBe(2);
  });

  test("refuses a TIFF avatar with 415 and keeps nothing of it", async () => {
    const res = await u.t.call("POST", "/api/users/avatar/upload", { token: u.bob.token, body: uploadForm(undefined, "avatar", [fileOf(tiffWithGps(), "me.tif")]) });
    expect(res.status).toBe(415);
    expect((await u.t.call("GET", "/api/users/avatar/info", { token: u.bob.token })).body.avatar_url).toBeNull();
  });
});
