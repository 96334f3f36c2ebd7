// A moderator's actions on the chat screen in happy-dom (issue 8): the ban page replacing the
// screen, warnings that only "I understand" dismisses, removed messages on both sides and in the
// chat list, and the Moderation entry in Settings for moderators only.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act, useEffect } from "react";
import ChatRow from "../../islands/chat/ChatRow.tsx";
import MessageBubble from "../../islands/chat/MessageBubble.tsx";
import SettingsSidebar from "../../islands/chat/SettingsSidebar.tsx";
import { attachModerationEvents, loadWarnings, markRemoved, queueWarnings, showBan } from "../../islands/lib/moderation.ts";
import type { BanNotice, Message, WarningNotice } from "../../islands/lib/types.ts";
import BanPage from "../../islands/moderation/BanPage.tsx";
import ModerationLayer from "../../islands/moderation/ModerationLayer.tsx";
import { banEnd } from "../../islands/moderation/texts.ts";
import { me, message, user } from "./fixtures.ts";
import { chatDom, emitter, harness, json, settle, text } from "./harness.ts";
import { button } from "./queries.ts";

const { dom, render } = chatDom();

/** Handlers render, so each event runs inside act(). */
const actEmitter = () => emitter((run) => act(run));

const ban: BanNotice = { reason: "Nudity on camera.\nSecond time this week.", until: "2026-11-30T14:05:00.000Z", appeal_url: "/appeal/tok123" };
const warning = (id: number, reason: string, at = `2026-11-22T10:00:0${id}.000Z`): WarningNotice => ({ id, reason, created_at: at });

describe("the ban page", () => {
  test("says the account is banned, why, until when, and links to the appeal", async () => {
    const { controller } = harness();
    const el = await render(controller, <BanPage notice={ban} />);
    expect(text(el.querySelector("h1"))).toBe("Your account has been banned");
    expect(document.activeElement).toBe(el.querySelector("h1"));
    expect(text(el.querySelector(".ban-reason p"))).toBe("Nudity on camera.\nSecond time this week.");
    expect(text(el.querySelector(".ban-end"))).toBe(`Banned ${banEnd(ban.until)}`);
    expect(el.querySelector(".ban-end time")?.getAttribute("datetime")).toBe(ban.until);
    const link = el.querySelector<HTMLAnchorElement>("a.ban-appeal");
    expect(text(link)).toBe("Appeal this ban");
    expect(link?.getAttribute("href")).toBe("/appeal/tok123");
  });

  test("a permanent ban reads 'permanently'", async () => {
    const { controller } = harness();
    const el = await render(controller, <BanPage notice={{ ...ban, until: null }} />);
    expect(text(el.querySelector(".ban-end"))).toBe("Banned permanently");
  });

  test("the end is a date and a time", () => {
    expect(banEnd("2026-11-30T14:05:00.000Z", { timeZone: "UTC" })).toBe("until 30 November 2026 at 14:05 UTC");
    expect(banEnd("2026-11-30T14:05:00.000Z", { timeZone: "Europe/Berlin" })).toBe("until 30 November 2026 at 15:05");
    expect(banEnd(null)).toBe("permanently");
  });

  test("a 4403 close that came without the notice sends the person to sign in, where the login answer says why", async () => {
    const { controller } = harness();
    const el = await render(controller, <BanPage notice={null} />);
    expect(text(el.querySelector("h1"))).toBe("Your account has been banned");
    expect(el.querySelector("a.ban-appeal")?.getAttribute("href")).toBe("/");
  });
});

describe("a ban while the chat screen is open", () => {
  /** Stands for a call or Video Roulette: records when it is unmounted (its camera stops). */
  function Screen({ log }: { log: string[] }) {
    useEffect(() => () => void log.push("screen unmounted"), [log]);
    return <p className="the-chat">chat</p>;
  }

  test("the banned event replaces the whole screen with the ban page and forgets the token", async () => {
    const { controller } = harness();
    localStorage.setItem("token", "tok");
    localStorage.setItem("userId", "1");
    const socket = actEmitter();
    attachModerationEvents(controller, socket);
    const log: string[] = [];
    const el = await render(controller, <ModerationLayer><Screen log={log} /></ModerationLayer>);
    expect(el.querySelector(".the-chat")).not.toBeNull();
    socket.emit("banned", ban);
    expect(el.querySelector(".the-chat")).toBeNull();
    expect(log).toEqual(["screen unmounted"]);
    expect(text(el.querySelector("h1"))).toBe("Your account has been banned");
    expect(el.querySelector("a.ban-appeal")?.getAttribute("href")).toBe("/appeal/tok123");
    expect(localStorage.getItem("token")).toBeNull();
    expect(localStorage.getItem("userId")).toBeNull();
  });

  test("the close after the notice keeps the notice; a notice after a bare close fills it in", () => {
    const { controller } = harness();
    showBan(controller, ban);
    showBan(controller, null);
    expect(controller.store.banned.value).toEqual({ notice: ban });
    const other = harness().controller;
    showBan(other, null);
    expect(other.store.banned.value).toEqual({ notice: null });
    showBan(other, ban);
    expect(other.store.banned.value).toEqual({ notice: ban });
  });
});

describe("warnings", () => {
  test("waiting warnings load with the page and show one at a time until each is acknowledged", async () => {
    const acknowledged: string[] = [];
    const { controller } = harness({
      "GET /api/warnings": () => ({ warnings: [warning(1, "Be kind in chat"), warning(2, "No spam links")] }),
      "POST /api/warnings/1/acknowledge": (_init, path) => (acknowledged.push(path), { warning: warning(1, "Be kind in chat") }),
      "POST /api/warnings/2/acknowledge": (_init, path) => (acknowledged.push(path), { warning: warning(2, "No spam links") }),
    });
    await loadWarnings(controller);
    const el = await render(controller, <ModerationLayer><p>chat</p></ModerationLayer>);
    await settle();
    const dialog = () => document.querySelector('[role="alertdialog"]');
    expect(text(document.getElementById(dialog()?.getAttribute("aria-labelledby") ?? ""))).toBe("A moderator has warned you");
    expect(text(dialog()?.querySelector(".warning-reason"))).toBe("Be kind in chat");
    expect(text(dialog()?.querySelector(".warning-more"))).toBe("1 more after this one");
    expect(document.activeElement).toBe(button(el, "I understand"));

    await act(async () => button(el, "I understand")?.click());
    await settle();
    expect(acknowledged).toEqual(["/api/warnings/1/acknowledge"]);
    expect(text(dialog()?.querySelector(".warning-reason"))).toBe("No spam links");
    expect(dialog()?.querySelector(".warning-more")).toBeNull();

    await act(async () => button(el, "I understand")?.click());
    await settle();
    expect(acknowledged).toEqual(["/api/warnings/1/acknowledge", "/api/warnings/2/acknowledge"]);
    expect(dialog()).toBeNull();
  });

  test("Escape and a click beside the modal do not dismiss it", async () => {
    const { controller } = harness();
    queueWarnings(controller, [warning(3, "Mind the Terms")]);
    const el = await render(controller, <ModerationLayer><p>chat</p></ModerationLayer>);
    await settle();
    const dialog = document.querySelector('[role="alertdialog"]');
    await act(async () => {
      dialog?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
      (el.querySelector(".safety-backdrop") as HTMLElement | null)?.click();
    });
    expect(document.querySelector('[role="alertdialog"]')).not.toBeNull();
    expect(controller.store.warnings.value).toHaveLength(1);
  });

  test("a failed acknowledgement keeps the warning on screen and says so", async () => {
    const { controller, toasts } = harness({
      "POST /api/warnings/4/acknowledge": () => json(503, { error: "Please try again in a moment", code: "unavailable" }),
    });
    queueWarnings(controller, [warning(4, "Mind the Terms")]);
    const el = await render(controller, <ModerationLayer><p>chat</p></ModerationLayer>);
    await settle();
    await act(async () => button(el, "I understand")?.click());
    await settle();
    expect(toasts).toEqual(["error:Please try again in a moment"]);
    expect(text(document.querySelector(".warning-reason"))).toBe("Mind the Terms");
    expect(button(el, "I understand")?.disabled).toBe(false);
  });

  test("a warning on the open socket joins the queue once, in order, even if the page load brought it too", () => {
    const { controller } = harness();
    const socket = actEmitter();
    attachModerationEvents(controller, socket);
    queueWarnings(controller, [warning(6, "Second", "2026-11-22T10:00:06.000Z")]);
    socket.emit("warning", warning(5, "First", "2026-11-22T10:00:05.000Z"));
    socket.emit("warning", warning(6, "Second", "2026-11-22T10:00:06.000Z"));
    expect(controller.store.warnings.value.map((w) => w.id)).toEqual([5, 6]);
  });
});

describe("removed content", () => {
  const bob = user({ id: 2, name: "Bob" });

  test("message_removed empties the message in the open chat and in the chat list's preview", () => {
    const { controller } = harness();
    const gone = message({ id: 40, content: "something awful" });
    controller.store.messages.value = [message({ id: 39 }), gone];
    controller.store.chats.value = [{ ...bob, latest_message: gone }];
    const socket = actEmitter();
    attachModerationEvents(controller, socket);
    socket.emit("message_removed", { messageId: 40 });
    const [kept, removed] = controller.store.messages.value;
    expect(kept?.is_removed).toBe(false);
    expect(removed).toMatchObject({ id: 40, is_removed: true, content: "", file_path: null });
    expect(controller.store.chats.value[0]?.latest_message).toMatchObject({ id: 40, is_removed: true, content: "" });
  });

  test("a removed picture leaves the open lightbox", () => {
    const { controller } = harness();
    const a = message({ id: 50, message_type: "image", file_name: "a.jpg", file_path: "a.jpg" });
    const b = message({ id: 51, message_type: "image", file_name: "b.jpg", file_path: "b.jpg" });
    controller.store.messages.value = [a, b];
    controller.store.lightbox.value = { images: [a, b].map((m) => ({ url: `/uploads/${m.file_path}`, name: m.file_name ?? "", message: m })), index: 1 };
    markRemoved(controller, 51);
    expect(controller.store.lightbox.value?.images.map((i) => i.message.id)).toEqual([50]);
    expect(controller.store.lightbox.value?.index).toBe(0);
    markRemoved(controller, 50);
    expect(controller.store.lightbox.value).toBeNull();
  });

  const removed = (overrides: Partial<Message>) => message({ is_removed: true, content: "", ...overrides });

  test("a removed message reads 'Removed by a moderator' on both sides, and cannot be reported", async () => {
    const { controller } = harness();
    const theirs = await render(controller, <MessageBubble item={{ kind: "single", key: "a", message: removed({ id: 60 }) }} own={false} />);
    expect(text(theirs.querySelector(".message-text"))).toBe("Removed by a moderator");
    expect(theirs.querySelector(".message-text")?.classList.contains("is-removed")).toBe(true);
    expect(theirs.querySelector('[aria-label="Message options"]')).toBeNull();
    dom.unmount();
    const mine = await render(controller, <MessageBubble item={{ kind: "single", key: "b", message: removed({ id: 61, sender_id: 1, receiver_id: 2 }) }} own />);
    expect(text(mine.querySelector(".message-text"))).toBe("Removed by a moderator");
  });

  test("a removed file shows the words instead of the file; in a group the other files stay", async () => {
    const { controller } = harness();
    const file = removed({ id: 70, message_type: "file", file_name: null, file_path: null, file_size: null });
    const el = await render(controller, <MessageBubble item={{ kind: "single", key: "f", message: file }} own={false} />);
    expect(text(el.querySelector(".message-text"))).toBe("Removed by a moderator");
    expect(el.querySelector(".file-card, a[href^='/uploads/']")).toBeNull();
    dom.unmount();

    const kept = message({ id: 72, message_type: "file", file_name: "notes.pdf", file_path: "notes.pdf", file_size: 2048, group_id: "g1" });
    const gone = removed({ id: 71, message_type: "file", file_name: null, file_path: null, group_id: "g1" });
    const group = await render(controller, <MessageBubble item={{ kind: "file_group", key: "g", message: gone, files: [gone, kept] }} own={false} />);
    expect(group.querySelector("a[href='/uploads/notes.pdf']")).not.toBeNull();
    expect(text(group.querySelector(".message-text.is-removed"))).toBe("Removed by a moderator");
  });

  test("the chat list's preview says so too", async () => {
    const { controller } = harness();
    const el = await render(controller, <ul><ChatRow user={{ ...bob, latest_message: removed({ id: 80 }) }} now={new Date("2026-11-22T12:00:00Z")} /></ul>);
    expect(text(el.querySelector(".row-preview"))).toBe("Removed by a moderator");
    dom.unmount();
    const own = await render(controller, <ul><ChatRow user={{ ...bob, latest_message: removed({ id: 81, sender_id: 1, receiver_id: 2 }) }} now={new Date("2026-11-22T12:00:00Z")} /></ul>);
    expect(text(own.querySelector(".row-preview"))).toBe("You: Removed by a moderator");
  });
});

describe("the Moderation entry in Settings", () => {
  const entry = (el: HTMLElement) => Array.from(el.querySelectorAll("a")).find((a) => text(a.querySelector(".menu-title")) === "Moderation") ?? null;

  test("moderators and admins get a link to the console", async () => {
    for (const role of ["moderator", "admin"] as const) {
      const { controller } = harness({}, me({ role }));
      const el = await render(controller, <SettingsSidebar />);
      expect(entry(el)?.getAttribute("href")).toBe("/mod");
      dom.unmount();
    }
  });

  test("everyone else does not", async () => {
    const { controller } = harness({}, me({ role: "user" }));
    const el = await render(controller, <SettingsSidebar />);
    expect(entry(el)).toBeNull();
    expect(el.textContent).not.toContain("Moderation");
  });
});
