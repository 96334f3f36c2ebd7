// Issue 9, finding 9: one account cannot fill the disk (a per-user quota), many uploads at once
// cannot fill memory or the spool (a bound on bytes in flight), and a full disk is a clear 507
// that leaves no partial file and loses no message already acknowledged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { StorageLedger } from "../../src/uploads/quota.ts";
import type { DiskWriter, UploadDisk } from "../../src/uploads/storage.ts";
import { fileOf, pngBytes, uploadForm } from "./fixtures.ts";
import { until } from "../support/until.ts";

const KB = 1024;

let t: TestApp;

beforeAll(() => {
  t = makeTestApp({ STORAGE_QUOTA_MB: "1", UPLOAD_INFLIGHT_MB: "1" });
});
afterAll(() => t.close());

/** Fresh people for each test, so no test leans on what an earlier one uploaded. */
const person = () => registerUser(t);

const upload = (token: string, receiverId: number, file: File) =>
  t.call("POST", "/api/messages/upload", { token, body: uploadForm(receiverId, "file", [file]) });

const listing = (folder: string) => {
  try {
    return readdirSync(join(t.dataDir, "uploads", folder));
  } catch {
    return [];
  }
};

describe("the per-user storage quota", () => {
  test("refuses an upload past STORAGE_QUOTA_MB with 413 quota_exceeded and stores nothing", async () => {
    const [alice, bob] = [await person(), await person()];
    expect((await upload(alice.token, bob.user.id, fileOf(new Uint8Array(600 * KB), "first.bin"))).status).toBe(201);
    const before = listing("files").length;
    const res = await upload(alice.token, bob.user.id, fileOf(new Uint8Array(600 * KB), "second.bin"));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("quota_exceeded");
    expect(res.body.error).toContain("1 MB");
    expect(listing("files")).toHaveLength(before);
    expect(listing(".spool")).toHaveLength(0);
  });

  test("counts each person's own files only", async () => {
    const [alice, bob] = [await person(), await person()];
    // Alice's 600 KB would leave no room for Bob's 600 KB under one shared 1 MB.
    expect((await upload(alice.token, bob.user.id, fileOf(new Uint8Array(600 * KB), "alices.bin"))).status).toBe(201);
    expect((await upload(bob.token, alice.user.id, fileOf(new Uint8Array(600 * KB), "bobs.bin"))).status).toBe(201);
  });

  test("loads every user's total from the stored files at start", async () => {
    const [alice, bob, carol] = [await person(), await person(), await person()];
    expect((await upload(alice.token, bob.user.id, fileOf(new Uint8Array(600 * KB), "a.bin"))).status).toBe(201);
    expect((await upload(bob.token, alice.user.id, fileOf(new Uint8Array(300 * KB), "b.bin"))).status).toBe(201);
    const ledger = new StorageLedger(t.ctx.db, 1024 * KB);
    await ledger.load();
    expect(ledger.usedBy(alice.user.id)).toBe(600 * KB);
    expect(ledger.usedBy(bob.user.id)).toBe(300 * KB);
    expect(ledger.usedBy(carol.user.id)).toBe(0);
  });
});

/** A request whose body sends `first` bytes, then waits for `release` before the rest. */
function heldUpload(token: string, receiverId: number, release: Promise<void>) {
  const form = uploadForm(receiverId, "file", [fileOf(new Uint8Array(700 * KB), "slow.bin")]);
  const framed = new Response(form);
  const type = framed.headers.get("content-type")!;
  const body = framed.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  let length = 0;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const bytes = await body;
      length = bytes.length;
      controller.enqueue(bytes.subarray(0, 1000));
      await release;
      controller.enqueue(bytes.subarray(1000));
      controller.close();
    },
  });
  return body.then(() =>
    t.app.handle(
      new Request("http://localhost/api/messages/upload", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": type, "content-length": String(length) },
        body: stream,
      }),
    ),
  );
}

describe("the bound on bytes in flight", () => {
  test("answers 503 busy with Retry-After while other uploads hold the bound, and accepts once they finish", async () => {
    const [alice, bob, carol] = [await person(), await person(), await person()];
    let release = () => {};
    const held = heldUpload(carol.token, alice.user.id, new Promise<void>((resolve) => (release = resolve)));
    // Carol's upload is being received: its declared 700 KB are counted against the 1 MB.
    await until(() => t.ctx.uploads.inflight.bytes >= 700 * KB, "Carol's upload being counted in flight");
    const res = await t.call("POST", "/api/messages/upload", { token: bob.token, body: uploadForm(carol.user.id, "file", [fileOf(new Uint8Array(400 * KB), "b.bin")]) });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("busy");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    release();
    expect((await held).status).toBe(201);
    const again = await t.call("POST", "/api/messages/upload", { token: carol.token, body: uploadForm(bob.user.id, "file", [fileOf(new Uint8Array(10 * KB), "c.bin")]) });
    expect(again.status).toBe(201);
  });
});

/** A disk with room for `room` more bytes, failing past it with ENOSPC as a full file system does. */
function fullDisk(real: UploadDisk, room: number): UploadDisk {
  let written = 0;
  return {
    async create(path: string): Promise<DiskWriter> {
      const inner = await real.create(path);
      return {
        async write(chunk) {
          written += chunk.byteLength;
          if (written > room) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
          await inner.write(chunk);
        },
        close: () => inner.close(),
      };
    },
  };
}

describe("a full disk", () => {
  test("answers 507 storage_full, removes partial files and keeps every acknowledged message", async () => {
    const [sender, carol] = [await person(), await person()];
    const first = await upload(sender.token, carol.user.id, fileOf("kept", "kept.txt"));
    expect(first.status).toBe(201);
    const filesBefore = listing("files").length;
    const real = t.ctx.uploads.disk;
    try {
      const photo = await pngBytes(32, 32);
      // No room at all (the upload itself fails), and room for the upload but not its cleaned copy.
      const cases = [[0, fileOf(new Uint8Array(64 * KB).fill(7), "big.bin")], [0, fileOf(photo, "photo.png")], [photo.length, fileOf(photo, "photo.png")]] as const;
      for (const [room, file] of cases) {
        t.ctx.uploads.disk = fullDisk(real, room);
        {
          const res = await upload(sender.token, carol.user.id, file);
          expect(res.status).toBe(507);
          expect(res.body.code).toBe("storage_full");
          expect(res.body.error).toContain("full");
          expect(listing("files")).toHaveLength(filesBefore);
          expect(listing(".spool")).toHaveLength(0);
        }
      }
    } finally {
      t.ctx.uploads.disk = real;
    }
    const history = await t.call("GET", `/api/messages/${carol.user.id}`, { token: sender.token });
    expect(history.body.messages.map((m: { id: number }) => m.id)).toEqual([first.body.message.id]);
    expect((await upload(sender.token, carol.user.id, fileOf("after", "after.txt"))).status).toBe(201);
  });
});
