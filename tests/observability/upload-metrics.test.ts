import { describe, expect, test } from "bun:test";
import { aliceAndBob, fileOf, pngBytes, uploadForm } from "../uploads/fixtures.ts";

const u = aliceAndBob();

const series = (name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, "\\$&")} (\\S+)$`, "m").exec(u.t.ctx.metrics.registry.render())?.[1]);

describe("upload metrics", () => {
  test("count chat pictures, other files and avatars by kind, and chat files as stored messages", async () => {
    const before = ["image", "file", "avatar"].map((kind) => series(`webchat_uploads_total{kind="${kind}"}`));
    const storedBefore = series("webchat_messages_stored_total");
    const files = [fileOf(await pngBytes(), "dot.png", "image/png"), fileOf("plain notes", "notes.txt", "text/plain")];
    const sent = await u.t.call("POST", "/api/messages/upload-multiple", { token: u.alice.token, body: uploadForm(u.bob.user.id, "files", files) });
    expect(sent.status).toBe(201);
    const avatar = new FormData();
    avatar.append("avatar", fileOf(await pngBytes(), "me.png", "image/png"));
    expect((await u.t.call("POST", "/api/users/avatar/upload", { token: u.alice.token, body: avatar })).status).toBe(200);
    const after = ["image", "file", "avatar"].map((kind) => series(`webchat_uploads_total{kind="${kind}"}`));
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
    expect(series("webchat_messages_stored_total") - storedBefore).toBe(2);
  });
});
