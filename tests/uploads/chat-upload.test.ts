import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { aliceAndBob, fileOf, pngBytes, storedFiles, uploadForm } from "./fixtures.ts";

const TEN_MB = 10485760;

const u = aliceAndBob();

const upload = (files: File[], receiverId: number | string = u.bob.user.id, token = u.alice.token) =>
  u.t.call("POST", "/api/messages/upload", { token, body: uploadForm(receiverId, "file", files) });

const uploadMany = (files: File[], receiverId: number | string = u.bob.user.id, token = u.alice.token) =>
  u.t.call("POST", "/api/messages/upload-multiple", { token, body: uploadForm(receiverId, "files", files) });


describe("POST /api/messages/upload", () => {
  test("stores a file under a random name and answers 201 with the message", async () => {
    const res = await upload([fileOf("quarterly numbers", "report.txt", "text/plain")]);
    expect(res.status).toBe(201);
    const { message } = res.body;
    expect(message).toMatchObject({
      sender_id: u.alice.user.id,
      receiver_id: u.bob.user.id,
      sender_name: u.alice.user.name,
      content: "report.txt",
      message_type: "file",
      file_name: "report.txt",
      file_size: 17,
      group_id: null,
      is_read: false,
    });
    expect(message.file_path).toMatch(/^files\/[0-9a-f]{32}\.bin$/);
    expect(message.file_path).not.toContain("report");
    expect(existsSync(join(u.t.dataDir, "uploads", message.file_path))).toBe(true);
  });

  test("calls a PNG an image even when it is named .txt", async () => {
    const { body } = await upload([fileOf(await pngBytes(), "notes.txt", "text/plain")]);
    expect(body.message.message_type).toBe("image");
    expect(body.message.file_path).toEndWith(".png");
    expect(body.message.file_name).toBe("notes.txt");
  });

  test("calls a .jpg that is really text a file", async () => {
    const { body } = await upload([fileOf("just some words", "holiday.jpg", "image/jpeg")]);
    expect(body.message.message_type).toBe("file");
    expect(body.message.file_path).toEndWith(".bin");
  });

  test("refuses a file with JPEG magic bytes that does not decode, since its metadata cannot be removed", async () => {
    const fake = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new TextEncoder().encode("not really a jpeg at all")]);
    const res = await upload([fileOf(fake, "broken.jpg", "image/jpeg")]);
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_type");
    expect(res.body.error).toContain("broken.jpg");
  });

  test("keeps the display name without path separators or control characters", async () => {
    const { body } = await upload([fileOf("x", "..\\..\\etc/pass\u0000wd\u202Egpj.exe", "text/plain")]);
    expect(body.message.file_name).toBe("....etcpasswdgpj.exe");
    expect(body.message.content).toBe(body.message.file_name);
  });

  test("accepts a file of exactly 10485760 bytes", async () => {
    const res = await upload([fileOf(new Uint8Array(TEN_MB), "big.bin")]);
    expect(res.status).toBe(201);
    expect(res.body.message.file_size).toBe(TEN_MB);
  });

  test("refuses a file one byte over 10 MB with 413 and stores nothing", async () => {
    const before = storedFiles(u.t.dataDir).length;
    const res = await upload([fileOf(new Uint8Array(TEN_MB + 1), "too-big.bin")]);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("too_large");
    expect(res.body.error).toContain("10 MB");
    expect(storedFiles(u.t.dataDir)).toHaveLength(before);
  });

  test("refuses an empty file with a validation error", async () => {
    const res = await upload([fileOf(new Uint8Array(0), "empty.txt")]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation");
    expect(res.body.fields).toHaveProperty("file");
  });

  test("refuses a missing file, a missing receiverId and a receiverId that is not an id", async () => {
    const noFile = await upload([]);
    expect(noFile.status).toBe(400);
    expect(noFile.body.fields).toHaveProperty("file");
    for (const receiverId of [undefined, "", "abc", "-3"]) {
      const body = uploadForm(receiverId, "file", [fileOf("x", "a.txt")]);
      const res = await u.t.call("POST", "/api/messages/upload", { token: u.alice.token, body });
      expect(res.status).toBe(400);
      expect(res.body.fields).toHaveProperty("receiverId");
    }
  });

  test("refuses a file field sent as text", async () => {
    const form = new FormData();
    form.append("receiverId", String(u.bob.user.id));
    form.append("file", "I am not a file");
    const res = await u.t.call("POST", "/api/messages/upload", { token: u.alice.token, body: form });
    expect(res.status).toBe(400);
  });

  test("answers 404 for a receiver who does not exist and 400 for oneself", async () => {
    const unknown = await upload([fileOf("x", "a.txt")], 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await upload([fileOf("x", "a.txt")], u.alice.user.id)).status).toBe(400);
  });

  test("refuses a JSON body and a malformed multipart body with 400", async () => {
    const json = await u.t.call("POST", "/api/messages/upload", { token: u.alice.token, json: { receiverId: u.bob.user.id } });
    expect(json.status).toBe(400);
    const broken = await u.t.call("POST", "/api/messages/upload", {
      token: u.alice.token,
      body: "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nunterminated",
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(broken.status).toBe(400);
  });

  test("needs a bearer token", async () => {
    const res = await u.t.call("POST", "/api/messages/upload", { body: uploadForm(u.bob.user.id, "file", [fileOf("x", "a.txt")]) });
    expect(res.status).toBe(401);
  });
});

describe("POST /api/messages/upload-multiple", () => {
  test("stores every file as its own message, all sharing one new group_id", async () => {
    const res = await uploadMany([fileOf(await pngBytes(), "a.png", "image/png"), fileOf("text", "b.txt", "text/plain")]);
    expect(res.status).toBe(201);
    const [image, file] = res.body.messages;
    expect(image.message_type).toBe("image");
    expect(file.message_type).toBe("file");
    expect(image.group_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(file.group_id).toBe(image.group_id);
    expect(image.file_path).not.toBe(file.file_path);

    const again = await uploadMany([fileOf("x", "c.txt")]);
    expect(again.body.messages[0].group_id).not.toBe(image.group_id);
  });

  test("accepts ten files and refuses eleven with a message that says so", async () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => fileOf(`file ${i}`, `f${i}.txt`));
    expect((await uploadMany(files(10))).body.messages).toHaveLength(10);
    const before = storedFiles(u.t.dataDir).length;
    const res = await uploadMany(files(11));
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("at most 10");
    expect(res.body.fields.files).toContain("10");
    expect(storedFiles(u.t.dataDir)).toHaveLength(before);
  });

  test("refuses the whole group when any one file is empty or too large", async () => {
    const before = storedFiles(u.t.dataDir).length;
    const empty = await uploadMany([fileOf("fine", "ok.txt"), fileOf(new Uint8Array(0), "empty.txt")]);
    expect(empty.status).toBe(400);
    const tooBig = await uploadMany([fileOf("fine", "ok.txt"), fileOf(new Uint8Array(TEN_MB + 1), "big.bin")]);
    expect(tooBig.status).toBe(413);
    expect(storedFiles(u.t.dataDir)).toHaveLength(before);
  });

  test("refuses a request with no files", async () => {
    const res = await uploadMany([]);
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty("files");
  });
});
