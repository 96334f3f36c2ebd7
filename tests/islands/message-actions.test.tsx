// Replies, edits, deletions, reactions and voice messages on the chat screen, in happy-dom: the
// message menu, the quote above the input, "edited", the delete confirmation, the reaction chips,
// the inline player, and the events from the other side.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import ChatWindow from "../../islands/chat/ChatWindow.tsx";
import { attachChatEvents } from "../../islands/lib/events.ts";
import { applyDelete, applyEdit, applyReaction, canEdit, showMessage } from "../../islands/lib/message-actions.ts";
import type { Message } from "../../islands/lib/types.ts";
import { message, user } from "./fixtures.ts";
import { inLanguage } from "./in-language.ts";
import { chatDom, emitter, harness, settle, text, type Harness } from "./harness.ts";
import { button, typeInto } from "./queries.ts";
import { formatNumber } from "../../src/i18n/format.ts";

const { render } = chatDom();

const bob = user({ id: 2, name: "Bob", is_online: true });
const now = () => new Date().toISOString();
const mine = (overrides: Partial<Message> = {}) => message({ sender_id: 1, receiver_id: 2, sender_name: "Me", created_at: now(), ...overrides });
const theirs = (overrides: Partial<Message> = {}) => message({ created_at: now(), ...overrides });

const click = (el: Element | null | undefined) =>
  act(async () => {
    if (!(el instanceof HTMLElement)) throw new Error("nothing to click");
    el.click();
  });
const typeText = (area: HTMLTextAreaElement, value: string) => act(async () => typeInto(area, value));
const row = (el: HTMLElement, id: number) => el.querySelector<HTMLElement>(`[data-message-id="${id}"]`)!;
const menuItems = (el: HTMLElement) => Array.from(el.querySelectorAll('[role="menuitem"]')).map((i) => text(i));

/** The socket answers edits, deletions and reactions as the server does. */
function answering(h: Harness) {
  const request = h.socket.request.bind(h.socket);
  (h.socket as { request: unknown }).request = async (event: string, data: Record<string, unknown>) => {
    if (event === "edit_message") {
      h.sent.push({ event, data, ack: true });
      return { messageId: data.messageId, content: String(data.content).trim(), edited_at: "2026-11-26T10:00:00.000Z" };
    }
    if (event === "delete_message") {
      h.sent.push({ event, data, ack: true });
      return { messageId: data.messageId, deleted_at: "2026-11-26T10:01:00.000Z" };
    }
    if (event === "react") {
      h.sent.push({ event, data, ack: true });
      const current = h.controller.store.messages.value.find((m) => m.id === data.messageId)?.reactions.find((g) => g.user_ids.includes(1))?.emoji;
      return { messageId: data.messageId, userId: 1, emoji: current === data.emoji ? null : data.emoji };
    }
    return request(event as never, data as never);
  };
}

async function chatWith(messages: Message[], routes: Parameters<typeof harness>[0] = {}) {
  const h = harness({
    "GET /api/messages/2": () => ({ messages, hasMore: false, oldestMessageTime: messages[0]?.created_at ?? null }),
    "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
    "GET /api/messages/unread/count": () => ({ unread_count: 0 }),
    "GET /api/messages/unread/per-user": () => ({ items: [] }),
    ...routes,
  });
  answering(h);
  h.controller.select(bob, "chat");
  const el = await render(h.controller, <ChatWindow contact={bob} />);
  await settle();
  return { ...h, el };
}

describe("the rules on the client", () => {
  test("an edit, a deletion and a reaction change the message and the quotes of it", () => {
    const original = mine({ id: 10, content: "helo", reactions: [{ emoji: "👍", user_ids: [2] }] });
    const reply = theirs({ id: 11, reply_to: { id: 10, sender_name: "Me", message_type: "text", content: "helo" } });
    let list = applyEdit([original, reply], 10, "hello", "2026-11-26T10:00:00.000Z");
    expect(list[0]).toMatchObject({ content: "hello", edited_at: "2026-11-26T10:00:00.000Z" });
    expect(list[1]!.reply_to!.content).toBe("hello");
    list = applyReaction(list, 10, 1, "👍");
    expect(list[0]!.reactions).toEqual([{ emoji: "👍", user_ids: [2, 1] }]);
    list = applyReaction(list, 10, 2, "❤️");
    expect(list[0]!.reactions).toEqual([{ emoji: "👍", user_ids: [1] }, { emoji: "❤️", user_ids: [2] }]);
    list = applyReaction(list, 10, 1, null);
    expect(list[0]!.reactions).toEqual([{ emoji: "❤️", user_ids: [2] }]);
    list = applyDelete(list, 10, "2026-11-26T10:02:00.000Z");
    expect(list[0]).toMatchObject({ content: "", deleted_at: "2026-11-26T10:02:00.000Z", reactions: [] });
    expect(list[1]!.reply_to!.content).toBe("");
  });

  test("only my own text messages, not deleted, within 15 minutes, can be edited", () => {
    const t = Date.now();
    expect(canEdit(mine(), 1, t)).toBe(true);
    expect(canEdit(theirs(), 1, t)).toBe(false);
    expect(canEdit(mine({ message_type: "image" }), 1, t)).toBe(false);
    expect(canEdit(mine({ deleted_at: now() }), 1, t)).toBe(false);
    expect(canEdit(mine({ created_at: new Date(t - 16 * 60_000).toISOString() }), 1, t)).toBe(false);
  });
});

describe("the message menu", () => {
  test("offers Reply, React, Edit and Delete on my message, and Reply, React and Report on theirs", async () => {
    const { el } = await chatWith([theirs({ id: 20 }), mine({ id: 21 })]);
    await click(button(row(el, 21), "Message options"));
    expect(menuItems(el)).toEqual(["Reply", "React", "Edit", "Delete"]);
    await click(button(row(el, 21), "Message options"));
    await click(button(row(el, 20), "Message options"));
    expect(menuItems(el)).toEqual(["Reply", "React", "Report message"]);
  });

  test("Reply shows the quote above the input and sends the next message as a reply", async () => {
    const { el, controller, sent } = await chatWith([theirs({ id: 30, content: "lunch at noon?" })]);
    await click(button(row(el, 30), "Message options"));
    await click(button(el, "Reply"));
    expect(text(el.querySelector(".compose-title"))).toBe("Replying to Bob");
    expect(text(el.querySelector(".compose-text"))).toBe("lunch at noon?");
    const area = el.querySelector("textarea")!;
    expect(document.activeElement).toBe(area);
    await typeText(area, "yes!");
    await click(button(el, "Send message"));
    expect(sent.find((s) => s.event === "send_message")).toMatchObject({ data: { receiverId: 2, content: "yes!", replyToId: 30 } });
    expect(controller.store.replyTo.value).toBeNull();
    expect(el.querySelector(".compose-bar")).toBeNull();
  });

  test("Edit puts the text in the box, saving sends edit_message and shows 'edited'; what was typed before comes back", async () => {
    const { el, sent } = await chatWith([mine({ id: 40, content: "see you tmrw" })]);
    const area = el.querySelector("textarea")!;
    await typeText(area, "half-written");
    await click(button(row(el, 40), "Message options"));
    await click(button(el, "Edit"));
    expect(text(el.querySelector(".compose-title"))).toBe("Editing message");
    expect(area.value).toBe("see you tmrw");
    await typeText(area, "see you tomorrow");
    await click(button(el, "Save the edit"));
    await settle();
    expect(sent.find((s) => s.event === "edit_message")).toMatchObject({ data: { messageId: 40, content: "see you tomorrow" } });
    expect(text(row(el, 40).querySelector(".message-text"))).toBe("see you tomorrow");
    expect(text(row(el, 40).querySelector(".edited-label"))).toBe("edited");
    expect(area.value).toBe("half-written");
  });

  test("Delete asks first; confirmed, the message reads 'This message was deleted' and has no menu", async () => {
    const { el, sent } = await chatWith([mine({ id: 50, content: "oops" })]);
    await click(button(row(el, 50), "Message options"));
    await click(button(el, "Delete"));
    const dialog = el.querySelector('[role="alertdialog"]');
    expect(text(dialog?.querySelector("h2"))).toBe("Delete for everyone?");
    await click(button(dialog!, "Cancel"));
    expect(sent.some((s) => s.event === "delete_message")).toBe(false);
    await click(button(row(el, 50), "Message options"));
    await click(button(el, "Delete"));
    await click(el.querySelector('[role="alertdialog"] .is-danger'));
    await settle();
    expect(sent.at(-1)).toMatchObject({ event: "delete_message", data: { messageId: 50 } });
    expect(text(row(el, 50).querySelector(".message-text"))).toBe("This message was deleted");
    expect(button(row(el, 50), "Message options")).toBeNull();
  });

  test("React opens the seven quick reactions; a chip shows the count, mine pressed, and pressing it takes it back", async () => {
    const { el, sent } = await chatWith([theirs({ id: 60, reactions: [{ emoji: "👍", user_ids: [2] }] })]);
    await click(button(row(el, 60), "Message options"));
    await click(button(el, "React"));
    const options = Array.from(el.querySelectorAll('[role="toolbar"] button')).map((b) => text(b));
    expect(options).toEqual(["👍", "❤️", "😃", "😢", "🙏", "👎", "😡"]);
    expect(document.activeElement?.getAttribute("aria-label")).toBe("React 👍");
    await click(button(el, "React 👍"));
    await settle();
    expect(sent.at(-1)).toMatchObject({ event: "react", data: { messageId: 60, emoji: "👍" } });
    const chip = row(el, 60).querySelector(".reaction-chip")!;
    expect(text(chip)).toBe("👍2");
    expect(chip.getAttribute("aria-pressed")).toBe("true");
    await click(chip);
    await settle();
    expect(text(row(el, 60).querySelector(".reaction-chip"))).toBe("👍1");
    expect(row(el, 60).querySelector(".reaction-chip")!.getAttribute("aria-pressed")).toBe("false");
  });
});

describe("quotes and the other side's changes", () => {
  test("tapping a quote loads older pages until the original is there, then highlights it", async () => {
    const old = theirs({ id: 70, content: "the original", created_at: "2026-11-20T10:00:00.000Z" });
    const reply = mine({ id: 71, content: "about that", reply_to: { id: 70, sender_name: "Bob", message_type: "text", content: "the original" } });
    let pages = 0;
    const { el, controller } = await chatWith([], {
      "GET /api/messages/2": (_init, path) => {
        pages++;
        return path.includes("before=")
          ? { messages: [old], hasMore: false, oldestMessageTime: old.created_at }
          : { messages: [reply], hasMore: true, oldestMessageTime: reply.created_at };
      },
    });
    await act(() => controller.loadMessages(2));
    await settle();
    expect(row(el, 70)).toBeNull();
    const quote = row(el, 71).querySelector<HTMLElement>(".reply-quote")!;
    expect(quote.getAttribute("aria-label")).toBe("Replying to Bob: the original. Show that message");
    await click(quote);
    await settle();
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(row(el, 70)?.classList.contains("is-highlighted")).toBe(true);
    expect(await showMessage(controller, 999)).toBe(false);
  });

  test("message_edited, message_deleted and message_reaction from the other person update the chat and the chat list", async () => {
    const shown = theirs({ id: 80, content: "first" });
    const { el, controller } = await chatWith([shown]);
    controller.store.chats.value = [{ ...bob, latest_message: shown, unread_count: 0 }];
    const socket = emitter(act);
    attachChatEvents(controller, socket);
    socket.emit("message_edited", { messageId: 80, content: "second", edited_at: "2026-11-26T10:00:00.000Z" });
    expect(text(row(el, 80).querySelector(".message-text"))).toBe("second");
    expect(controller.store.chats.value[0]!.latest_message!.content).toBe("second");
    socket.emit("message_reaction", { messageId: 80, userId: 2, emoji: "😢" });
    expect(text(row(el, 80).querySelector(".reaction-chip"))).toBe("😢1");
    socket.emit("message_deleted", { messageId: 80, deleted_at: "2026-11-26T10:01:00.000Z" });
    expect(text(row(el, 80).querySelector(".message-text"))).toBe("This message was deleted");
    expect(controller.store.chats.value[0]!.latest_message!.deleted_at).toBe("2026-11-26T10:01:00.000Z");
  });

  test("a voice message plays inline with its length from the server", async () => {
    const { el } = await chatWith([theirs({ id: 90, message_type: "voice", content: "voice.webm", file_path: "files/" + "a".repeat(32) + ".webm", duration_ms: 7400 })]);
    const player = row(el, 90).querySelector(".voice-player")!;
    expect(player.querySelector("audio")?.getAttribute("src")).toBe(`/uploads/files/${"a".repeat(32)}.webm`);
    expect(button(player, "Play voice message, 0:07")).not.toBeNull();
    expect(text(player.querySelector(".voice-time"))).toBe("0:07");
    expect(player.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow")).toBe("0");
  });
});

describe("in the page's language", () => {
  test("the menu, the quote, 'edited', the delete confirmation and the player speak Spanish", () =>
    inLanguage("es", async () => {
      const { el } = await chatWith([
        theirs({ id: 100, content: "¿comemos?" }),
        mine({ id: 101, content: "sí", edited_at: now() }),
        theirs({ id: 102, message_type: "voice", content: "voice.webm", file_path: "files/" + "b".repeat(32) + ".webm", duration_ms: 7400 }),
      ]);
      await click(button(row(el, 101), "Opciones del mensaje"));
      expect(menuItems(el)).toEqual(["Responder", "Reaccionar", "Editar", "Eliminar"]);
      expect(text(row(el, 101).querySelector(".edited-label"))).toBe("editado");
      await click(button(el, "Eliminar"));
      const dialog = el.querySelector('[role="alertdialog"]');
      expect(text(dialog?.querySelector("h2"))).toBe("¿Eliminar para todos?");
      await click(button(dialog!, "Cancelar"));
      await click(button(row(el, 100), "Opciones del mensaje"));
      await click(button(el, "Responder"));
      expect(text(el.querySelector(".compose-title"))).toBe("Respondiendo a Bob");
      expect(button(el, "Respondiendo a Bob: ¿comemos?. Mostrar ese mensaje")).not.toBeNull();
      expect(button(row(el, 102), "Reproducir mensaje de voz, 0:07")).not.toBeNull();
    }));

  test("a reaction chip's label takes Arabic words around its number", () =>
    inLanguage("ar", async () => {
      const { el } = await chatWith([theirs({ id: 110, reactions: [{ emoji: "👍", user_ids: [1, 2] }] })]);
      const chip = row(el, 110).querySelector(".reaction-chip")!;
      expect(chip.getAttribute("aria-label")).toBe(`👍 ${formatNumber("ar", 2)}، تفاعلك: اضغط لإزالته`);
      expect(row(el, 110).querySelector('[role="group"]')?.getAttribute("aria-label")).toBe("التفاعلات");
    }));
});
