// Removing content: a file message loses its text and file (deleted from disk), both sides hear
// `message_removed`, and the API sends it as removed with no content; an avatar is deleted.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { removeAvatar, removeMessage } from "../../src/moderation/actions.ts";
import { fileOf, pngBytes, uploadForm } from "../uploads/fixtures.ts";
import { registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { auditOf, fileReport, reportRow, staff } from "../support/moderation.ts";

const t = listeningApp();

describe("removing a message", () => {
  test("clears it, deletes its file, tells both sides, and the API sends it as removed with empty content", async () => {
    const mod = await staff(t, "moderator");
    const sender = await connectedUser(t);
    const receiver = await connectedUser(t);
    const upload = await t.call("POST", "/api/messages/upload", { token: sender.token, body: uploadForm(receiver.user.id, "file", [fileOf("hello file", "note.txt")]) });
    expect(upload.status).toBe(201);
    const message = upload.body.message;
    const onDisk = join(t.dataDir, "uploads", message.file_path);
    expect(existsSync(onDisk)).toBe(true);
    const report = await fileReport(t, receiver.user.id, sender.user.id);
    await removeMessage(t.ctx, mod.actor, message.id, "Unsolicited explicit file", [report.id]);
    expect(existsSync(onDisk)).toBe(false);
    expect((await sender.s.next("message_removed")).data).toEqual({ messageId: message.id });
    expect((await receiver.s.next("message_removed")).data).toEqual({ messageId: message.id });
    const page = await t.call("GET", `/api/messages/${sender.user.id}`, { token: receiver.token });
    const shown = page.body.messages.find((m: { id: number }) => m.id === message.id);
    expect(shown).toMatchObject({ is_removed: true, content: "", file_path: null, file_name: null });
    expect((await t.call("GET", `/uploads/${message.file_path}`, { token: receiver.token })).status).toBe(404);
    expect((await reportRow(t, report.id))!.status).toBe("actioned");
    expect((await auditOf(t, sender.user.id)).at(-1)).toMatchObject({ action: "remove_message", reason: "Unsolicited explicit file", reportIds: JSON.stringify([report.id]) });
    await expect(removeMessage(t.ctx, mod.actor, message.id, "again")).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await expect(removeMessage(t.ctx, mod.actor, 99999999, "gone")).rejects.toThrow(expect.objectContaining({ status: 404 }));
  });

  test("a text message keeps its place in the conversation with no text", async () => {
    const mod = await staff(t, "moderator");
    const sender = await connectedUser(t);
    const receiver = await registerUser(t);
    const sent = await sender.s.ask("send_message", { receiverId: receiver.user.id, content: "something vile", messageType: "text" });
    await removeMessage(t.ctx, mod.actor, sent.data.message.id, "Hate speech");
    const page = await t.call("GET", `/api/messages/${sender.user.id}`, { token: receiver.token });
    expect(page.body.messages).toHaveLength(1);
    expect(page.body.messages[0]).toMatchObject({ id: sent.data.message.id, is_removed: true, content: "" });
    expect(JSON.stringify(page.body)).not.toContain("vile");
  });
});

describe("removing an avatar", () => {
  test("deletes the file and clears the picture", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const form = new FormData();
    form.append("avatar", fileOf(await pngBytes(), "me.png", "image/png"));
    const uploaded = await t.call("POST", "/api/users/avatar/upload", { token: target.token, body: form });
    expect(uploaded.status).toBe(200);
    const onDisk = join(t.dataDir, uploaded.body.avatar_url);
    expect(existsSync(onDisk)).toBe(true);
    await removeAvatar(t.ctx, mod.actor, target.user.id, "Explicit profile picture");
    expect(existsSync(onDisk)).toBe(false);
    expect((await t.call("GET", "/api/auth/me", { token: target.token })).body.user.avatar_url).toBeNull();
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "remove_avatar", reason: "Explicit profile picture" });
    await expect(removeAvatar(t.ctx, mod.actor, target.user.id, "again")).rejects.toThrow(expect.objectContaining({ status: 400 }));
  });
});
