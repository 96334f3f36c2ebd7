// UPLOADS_DIR (API.md "Several instances": a folder every instance shares): chat files and avatars
// are written to it and served from it, while each instance's spool of uploads in progress stays
// in its own DATA_DIR (an instance empties its spool at start-up, which must not touch another's).
// On another file system (here /dev/shm, a tmpfs, against /tmp) a file is copied under a dotted
// name first and renamed into place, so no instance ever serves half of it.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { fileOf, pngBytes, uploadForm } from "../uploads/fixtures.ts";

const made: string[] = [];
const folder = (under: string) => {
  const d = mkdtempSync(join(under, "webchat-shared-uploads-"));
  made.push(d);
  return d;
};
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const otherFileSystem = existsSync("/dev/shm") && statSync("/dev/shm").dev !== statSync(tmpdir()).dev;

describe.each([
  ["on the data folder's file system", () => folder(tmpdir())],
  ...(otherFileSystem ? [["on another file system (/dev/shm)", () => folder("/dev/shm")] as const] : []),
])("UPLOADS_DIR %s", (_, makeShared) => {
  test("a chat file and an avatar are stored in UPLOADS_DIR, served from it, and nothing stays in the spool", async () => {
    const shared = makeShared();
    const t = makeTestApp({ UPLOADS_DIR: shared });
    apps.push(t);
    const [alice, bob] = [await registerUser(t), await registerUser(t)];
    const sent = await t.call("POST", "/api/messages/upload", { token: alice.token, body: uploadForm(bob.user.id, "file", [fileOf("hello across instances", "note.txt")]) });
    expect(sent.status).toBe(201);
    const path: string = sent.body.message.file_path;
    expect(existsSync(join(shared, path))).toBe(true);
    expect(existsSync(join(t.dataDir, "uploads", path))).toBe(false);
    const served = await t.call("GET", `/uploads/${path}`, { token: bob.token });
    expect(served.status).toBe(200);
    expect(served.text).toBe("hello across instances");

    const form = new FormData();
    form.append("avatar", fileOf(await pngBytes(), "me.png", "image/png"));
    const avatar = await t.call("POST", "/api/users/avatar/upload", { token: alice.token, body: form });
    expect(avatar.status).toBe(200);
    const avatarPath = String(avatar.body.avatar_url).replace(/^\/uploads\//, "");
    expect(existsSync(join(shared, avatarPath))).toBe(true);
    expect((await t.call("GET", `/uploads/${avatarPath}`)).status).toBe(200);

    // No partial copy (".<hex>.part") is left next to the stored files, and the spool is empty.
    expect(readdirSync(join(shared, "files")).filter((n) => n.startsWith("."))).toEqual([]);
    expect(readdirSync(join(t.dataDir, "uploads", ".spool"))).toEqual([]);

    // Deleting the message for everyone removes the file from UPLOADS_DIR.
    const { deleteMessage } = await import("../../src/messages/actions/delete.ts");
    const { removeUpload } = await import("../../src/uploads/storage.ts");
    const deleted = await deleteMessage(t.ctx.db, alice.user.id, sent.body.message.id, Date.now(), () => {});
    await removeUpload(t.ctx.config, deleted.filePath);
    expect(existsSync(join(shared, path))).toBe(false);
  });
});
