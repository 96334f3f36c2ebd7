// Voice messages: the content check (Opus in WebM or Ogg, by content), the length and size
// limits, and the upload of kind "voice" end to end. The recordings under voice/ were made with
// ffmpeg (libopus); *-live.webm were written to a pipe, as MediaRecorder writes them: no
// Duration, Segment and Clusters of unknown size.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkVoice } from "../../src/uploads/voice.ts";
import { registerUser } from "../support/app.ts";
import { aliceAndBob, fileOf, storedFiles, uploadForm } from "./fixtures.ts";

const recording = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "voice", name)));

describe("checkVoice", () => {
  test("accepts Opus in Ogg and in WebM, with or without a written Duration, and measures their length", () => {
    expect(checkVoice(recording("two-seconds.ogg"))).toMatchObject({ ok: true, container: "ogg", mime: "audio/ogg", durationMs: 2000 });
    expect(checkVoice(recording("two-seconds.webm"))).toMatchObject({ ok: true, container: "webm", mime: "audio/webm", durationMs: 2008 });
    const live = checkVoice(recording("three-seconds-live.webm"));
    expect(live).toMatchObject({ ok: true, container: "webm" });
    expect(live.ok && Math.abs(live.durationMs! - 3000) < 100).toBe(true);
  });

  test("measures recordings past 5 minutes, in both containers", () => {
    for (const name of ["too-long.ogg", "too-long-live.webm"]) {
      const checked = checkVoice(recording(name));
      expect(checked.ok && checked.durationMs! > 300_500).toBe(true);
    }
  });

  test("refuses Vorbis in Ogg or WebM, a video with Opus sound, MP3 and text", () => {
    for (const name of ["vorbis.ogg", "vorbis.webm", "video-with-opus.webm", "mp3.mp3"]) expect(checkVoice(recording(name)).ok).toBe(false);
    expect(checkVoice(new TextEncoder().encode("OggS but not really")).ok).toBe(false);
    expect(checkVoice(new Uint8Array(0)).ok).toBe(false);
  });

  test("refuses a truncated or corrupted file without throwing", () => {
    const ogg = recording("two-seconds.ogg");
    expect(checkVoice(ogg.subarray(0, 40)).ok).toBe(false);
    const webm = recording("two-seconds.webm");
    for (const cut of [4, 20, 60, 200]) expect(() => checkVoice(webm.subarray(0, cut))).not.toThrow();
    const garbled = webm.slice();
    garbled.fill(0, 40, 400);
    expect(checkVoice(garbled).ok).toBe(false);
  });

  test("a page of another stream inside the Ogg file (a video beside the sound) is refused", () => {
    const ogg = recording("two-seconds.ogg");
    const doubled = new Uint8Array(ogg.length * 2);
    doubled.set(ogg);
    const other = ogg.slice();
    new DataView(other.buffer).setUint32(14, 12345, true);
    doubled.set(other, ogg.length);
    expect(checkVoice(doubled).ok).toBe(false);
  });
});

describe("POST /api/messages/upload with kind=voice", () => {
  const pair = aliceAndBob();

  const voiceForm = (receiverId: number, file: File, durationMs: string | undefined, kind = "voice") => {
    const form = uploadForm(receiverId, "file", [file]);
    form.append("kind", kind);
    if (durationMs !== undefined) form.append("duration_ms", durationMs);
    return form;
  };
  const send = (form: FormData, token = pair.alice.token) => pair.t.call("POST", "/api/messages/upload", { token, body: form });

  test("stores an Ogg and a WebM recording as voice messages with the container's length, playable inline by the two people only", async () => {
    const { t, alice, bob } = pair;
    for (const [name, stated, type] of [["two-seconds.ogg", "2100", "audio/ogg"], ["three-seconds-live.webm", "3000", "audio/webm"]] as const) {
      // The name and the browser's type say nothing: a recording named .txt is still a voice message.
      const r = await send(voiceForm(bob.user.id, fileOf(recording(name), "note.txt", "text/plain"), stated));
      expect(r.status).toBe(201);
      const message = r.body.message;
      expect(message).toMatchObject({ message_type: "voice", sender_id: alice.user.id, receiver_id: bob.user.id, reply_to: null, reactions: [] });
      expect(Math.abs(message.duration_ms - Number(stated))).toBeLessThan(150);
      expect(message.file_path).toMatch(new RegExp(`\\.${type.slice(6)}$`));
      const served = await t.call("GET", `/uploads/${message.file_path}`, { token: bob.token });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(type);
      expect(served.headers.get("content-disposition")).toStartWith("inline");
      expect((await t.call("GET", `/uploads/${message.file_path}`, { token: (await registerUser(t)).token })).status).toBe(404);
      const history = await t.call("GET", `/api/messages/${alice.user.id}`, { token: bob.token });
      expect(history.body.messages.at(-1)).toMatchObject({ id: message.id, message_type: "voice", duration_ms: message.duration_ms });
    }
  });

  test("refuses what is not Opus in WebM or Ogg with 415, and stores nothing", async () => {
    const { t, bob } = pair;
    const before = storedFiles(t.dataDir).length;
    for (const name of ["vorbis.ogg", "vorbis.webm", "video-with-opus.webm", "mp3.mp3"]) {
      const r = await send(voiceForm(bob.user.id, fileOf(recording(name), "voice.webm", "audio/webm"), "1000"));
      expect(r.status).toBe(415);
      expect(r.body.code).toBe("unsupported_type");
    }
    expect(storedFiles(t.dataDir).length).toBe(before);
  });

  test("refuses a recording past 5 minutes in either container, and a stated length past 5 minutes", async () => {
    const { bob } = pair;
    for (const name of ["too-long.ogg", "too-long-live.webm"]) {
      const r = await send(voiceForm(bob.user.id, fileOf(recording(name), "long"), "299000"));
      expect(r.status).toBe(400);
      expect(r.body.fields.duration_ms).toContain("5 minutes");
    }
    const stated = await send(voiceForm(bob.user.id, fileOf(recording("two-seconds.ogg"), "v"), "300001"));
    expect(stated.status).toBe(400);
  });

  test("refuses a stated length the container contradicts, and a missing or malformed one", async () => {
    const { bob } = pair;
    for (const stated of ["60000", undefined, "", "2.5", "-1", "0"]) {
      const r = await send(voiceForm(bob.user.id, fileOf(recording("two-seconds.ogg"), "v"), stated));
      expect(r.status).toBe(400);
      expect(r.body.fields.duration_ms).toBeString();
    }
  });

  test("refuses a recording larger than 5 MB with 413", async () => {
    const { bob } = pair;
    const ogg = recording("two-seconds.ogg");
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(ogg);
    const r = await send(voiceForm(bob.user.id, fileOf(big, "big.ogg"), "2000"));
    expect(r.status).toBe(413);
  });

  test("an unknown kind, and voice through upload-multiple, are refused", async () => {
    const { t, alice, bob } = pair;
    expect((await send(voiceForm(bob.user.id, fileOf(recording("two-seconds.ogg"), "v"), "2000", "video"))).status).toBe(400);
    const form = uploadForm(bob.user.id, "files", [fileOf(recording("two-seconds.ogg"), "v")]);
    form.append("kind", "voice");
    expect((await t.call("POST", "/api/messages/upload-multiple", { token: alice.token, body: form })).status).toBe(400);
  });

  test("a block refuses a voice message as it refuses text", async () => {
    const { t, bob } = pair;
    const carol = await registerUser(t);
    expect((await t.call("POST", "/api/blocks", { token: bob.token, json: { userId: carol.user.id } })).status).toBeLessThan(300);
    const r = await send(voiceForm(bob.user.id, fileOf(recording("two-seconds.ogg"), "v"), "2000"), carol.token);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("blocked");
  });

  test("deleting a voice message removes its recording from disk", async () => {
    const { t, alice, bob } = pair;
    const r = await send(voiceForm(bob.user.id, fileOf(recording("two-seconds.webm"), "v"), "2000"));
    const onDisk = join(t.dataDir, "uploads", r.body.message.file_path);
    expect(existsSync(onDisk)).toBe(true);
    const { deleteMessage } = await import("../../src/messages/actions/delete.ts");
    const { removeUpload } = await import("../../src/uploads/storage.ts");
    const deleted = await deleteMessage(t.ctx.db, alice.user.id, r.body.message.id, Date.now(), () => {});
    await removeUpload(t.ctx.config, deleted.filePath);
    expect(existsSync(onDisk)).toBe(false);
    const history = await t.call("GET", `/api/messages/${alice.user.id}`, { token: bob.token });
    expect(history.body.messages.at(-1)).toMatchObject({ id: r.body.message.id, message_type: "voice", file_path: null, duration_ms: null });
  });
});
