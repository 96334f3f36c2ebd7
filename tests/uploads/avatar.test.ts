import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { animatedGif, fileOf, jpegWithExif, pngBytes, pngOfSize, SVG_WITH_SCRIPT } from "./fixtures.ts";

const FIVE_MB = 5242880;

let t: TestApp;

beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.close());

function avatarForm(file: File | string): FormData {
  const form = new FormData();
  form.append("avatar", file);
  return form;
}

const uploadAvatar = (token: string, file: File | string) => t.call("POST", "/api/users/avatar/upload", { token, body: avatarForm(file) });

const diskPath = (avatarUrl: string) => join(t.dataDir, avatarUrl);

describe("POST /api/users/avatar/upload", () => {
  test("stores the image under a random name and answers its url", async () => {
    const { token } = await registerUser(t);
    const res = await uploadAvatar(token, fileOf(await pngBytes(), "me.png", "image/png"));
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.png$/);
    expect(existsSync(diskPath(res.body.avatar_url))).toBe(true);
    expect((await t.call("GET", "/api/users/avatar/info", { token })).body).toEqual({ avatar_url: res.body.avatar_url });
    expect((await t.call("GET", "/api/auth/me", { token })).body.user.avatar_url).toBe(res.body.avatar_url);
  });

  test("replaces the old avatar and deletes its file", async () => {
    const { token } = await registerUser(t);
    const first = (await uploadAvatar(token, fileOf(await pngBytes(), "one.png"))).body.avatar_url;
    const second = (await uploadAvatar(token, fileOf(await pngBytes(), "two.png"))).body.avatar_url;
    expect(second).not.toBe(first);
    expect(existsSync(diskPath(first))).toBe(false);
    expect(existsSync(diskPath(second))).toBe(true);
    expect((await t.call("GET", first)).status).toBe(404);
  });

  test("stores a JPEG avatar without EXIF", async () => {
    const { token } = await registerUser(t);
    const res = await uploadAvatar(token, fileOf(await jpegWithExif(), "me.jpg", "image/jpeg"));
    expect(res.body.avatar_url).toEndWith(".jpg");
    const stored = readFileSync(diskPath(res.body.avatar_url));
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  test("accepts jpeg, png, gif and webp by content, whatever the name says", async () => {
    const { token } = await registerUser(t);
    const webp = new Uint8Array(await sharp(await pngBytes()).webp().toBuffer());
    const cases = [
      [await jpegWithExif(), "jpg"],
      [await pngBytes(), "png"],
      [await animatedGif(), "gif"],
      [webp, "webp"],
    ] as const;
    for (const [bytes, ext] of cases) {
      const res = await uploadAvatar(token, fileOf(bytes, "avatar.txt", "text/plain"));
      expect(res.status).toBe(200);
      expect(res.body.avatar_url).toEndWith(`.${ext}`);
    }
  });

  test("accepts exactly 5242880 bytes and refuses one more with 413", async () => {
    const { token } = await registerUser(t);
    const exact = await uploadAvatar(token, fileOf(await pngOfSize(FIVE_MB), "big.png", "image/png"));
    expect(exact.status).toBe(200);
    const over = await uploadAvatar(token, fileOf(await pngOfSize(FIVE_MB + 1), "bigger.png", "image/png"));
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("too_large");
    expect((await t.call("GET", "/api/users/avatar/info", { token })).body.avatar_url).toBe(exact.body.avatar_url);
  });

  test.each([
    ["an SVG", SVG_WITH_SCRIPT, "me.svg", "image/svg+xml"],
    ["text named .png", "hello", "me.png", "image/png"],
    ["a PDF", "%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n", "me.pdf", "application/pdf"],
  ])("refuses %s with 415 unsupported_type", async (_, content, name, type) => {
    const { token } = await registerUser(t);
    const res = await uploadAvatar(token, fileOf(content, name, type));
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_type");
    expect(res.body.error).toContain("JPEG");
  });

  test("refuses PNG magic bytes over data that is not an image", async () => {
    const { token } = await registerUser(t);
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await uploadAvatar(token, fileOf(fake, "me.png", "image/png"))).status).toBe(415);
  });

  test("refuses an empty file, a missing field and a text field with 400", async () => {
    const { token } = await registerUser(t);
    expect((await uploadAvatar(token, fileOf(new Uint8Array(0), "me.png"))).status).toBe(400);
    expect((await uploadAvatar(token, "not a file")).status).toBe(400);
    const wrongField = new FormData();
    wrongField.append("file", fileOf(await pngBytes(), "me.png"));
    const res = await t.call("POST", "/api/users/avatar/upload", { token, body: wrongField });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty("avatar");
  });

  test("needs a bearer token, not only the cookie", async () => {
    const { token } = await registerUser(t);
    const form = avatarForm(fileOf(await pngBytes(), "me.png"));
    const res = await t.call("POST", "/api/users/avatar/upload", { body: form, headers: { cookie: `sid=${token}` } });
    expect(res.status).toBe(401);
  });
});

describe("DELETE /api/users/avatar", () => {
  test("removes the avatar and deletes its file", async () => {
    const { token } = await registerUser(t);
    const url = (await uploadAvatar(token, fileOf(await pngBytes(), "me.png"))).body.avatar_url;
    const res = await t.call("DELETE", "/api/users/avatar", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(existsSync(diskPath(url))).toBe(false);
    expect((await t.call("GET", "/api/users/avatar/info", { token })).body).toEqual({ avatar_url: null });
    expect((await t.call("GET", url)).status).toBe(404);
  });

  test("succeeds when there is no avatar to delete", async () => {
    const { token } = await registerUser(t);
    expect((await t.call("DELETE", "/api/users/avatar", { token })).body).toEqual({ success: true });
  });

  test("needs a bearer token", async () => {
    expect((await t.call("DELETE", "/api/users/avatar")).status).toBe(401);
  });
});
