// Safety on the chat screen in happy-dom: the report dialog, blocking from the chat header, the
// Blocked people and Privacy settings, pictures from strangers, refusals and the 18+ gate.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import ChatWindow from "../../islands/chat/ChatWindow.tsx";
import ImageGrid from "../../islands/chat/ImageGrid.tsx";
import MessageBubble from "../../islands/chat/MessageBubble.tsx";
import type { ChatController } from "../../islands/lib/controller.ts";
import { AckError } from "../../islands/lib/socket.ts";
import { attachChatEvents } from "../../islands/lib/events.ts";
import AdultGate from "../../islands/safety/AdultGate.tsx";
import { ensureAdult } from "../../islands/safety/adult-gate.ts";
import BlockedPeople from "../../islands/safety/BlockedPeople.tsx";
import PrivacySettings from "../../islands/safety/PrivacySettings.tsx";
import ReportDialog, { type ReportTarget } from "../../islands/safety/ReportDialog.tsx";
import SafetyDialogs from "../../islands/safety/SafetyDialogs.tsx";
import { me, message, user } from "./fixtures.ts";
import { bodyOf, chatDom, click, harness, json, settle, text, wait } from "./harness.ts";
import { button, typeInto } from "./queries.ts";

const { render } = chatDom();

const bob = user({ id: 2, name: "Bob", is_online: true });
const typeText = (area: HTMLTextAreaElement, value: string) => act(async () => typeInto(area, value));

describe("the report dialog", () => {
  const target: ReportTarget = { context: "chat", name: "Bob", userId: 2 };

  test("offers the six reasons and keeps Send report disabled until one is chosen", async () => {
    const { controller } = harness();
    const el = await render(controller, <ReportDialog target={target} onClose={() => {}} />);
    const dialog = el.querySelector('[role="dialog"]');
    expect(text(document.getElementById(dialog?.getAttribute("aria-labelledby") ?? ""))).toBe("Report Bob");
    expect(Array.from(el.querySelectorAll("label:has(input[type=radio])")).map((l) => text(l))).toEqual([
      "Sexual content or nudity",
      "Appears to be under 18",
      "Harassment or hate",
      "Spam or scam",
      "Violence or threats",
      "Other",
    ]);
    expect(button(el, "Send report")?.disabled).toBe(true);
    await click(el.querySelector('input[value="harassment"]'));
    expect(button(el, "Send report")?.disabled).toBe(false);
  });

  test("counts the details and stops them at 1000 characters", async () => {
    const { controller } = harness();
    const el = await render(controller, <ReportDialog target={target} onClose={() => {}} />);
    const area = el.querySelector("textarea")!;
    await typeText(area, "He keeps writing");
    expect(text(el.querySelector(".safety-counter"))).toBe("16/1000");
    await typeText(area, "x".repeat(1200));
    expect(area.value).toHaveLength(1000);
    expect(text(el.querySelector(".safety-counter"))).toBe("1000/1000");
  });

  test("sends the report, thanks the reporter, then offers to block in the same dialog", async () => {
    const sent: unknown[] = [];
    const { controller, toasts } = harness({
      "POST /api/reports": (init) => {
        sent.push(bodyOf(init));
        return json(201, { report: { id: 1, status: "open", created_at: "2026-11-22T10:00:00.000Z" } });
      },
      "POST /api/blocks": (init) => {
        sent.push(bodyOf(init));
        return json(201, { block: { user: bob, created_at: "2026-11-22T10:00:00.000Z" } });
      },
    });
    let blocked = 0;
    let closed = 0;
    const el = await render(
      controller,
      <ReportDialog target={target} onClose={() => closed++} onBlocked={() => blocked++} />,
    );
    await click(el.querySelector('input[value="spam"]'));
    await typeText(el.querySelector("textarea")!, "  Sells followers  ");
    await click(button(el, "Send report"));
    await settle();
    expect(sent[0]).toEqual({ reportedUserId: 2, context: "chat", reason: "spam", details: "Sells followers" });
    expect(toasts).toContain("success:Thanks. Our moderators will review your report.");
    expect(text(el.querySelector("h2"))).toBe("Block Bob?");
    expect(button(el, "Not now")).not.toBeNull();
    await click(button(el, "Block"));
    await settle();
    expect(sent[1]).toEqual({ userId: 2 });
    expect(blocked).toBe(1);
    expect(closed).toBe(1);
  });

  test("a roulette stranger is reported and blocked by the pairing id, never a user id", async () => {
    const sent: unknown[] = [];
    const { controller } = harness({
      "POST /api/reports": (init) => {
        sent.push(init?.body);
        return json(201, { report: { id: 1, status: "open", created_at: "2026-11-22T10:00:00.000Z" } });
      },
      "POST /api/blocks": (init) => {
        sent.push(bodyOf(init));
        return json(201, { block: { user: null, created_at: "2026-11-22T10:00:00.000Z" } });
      },
    });
    const still = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" });
    const el = await render(
      controller,
      <ReportDialog target={{ context: "roulette", name: "Stranger", rouletteId: "r-abc", still, stillBackend: "wasm-simd" }} onClose={() => {}} />,
    );
    expect(text(el.querySelector("h2"))).toBe("Report Stranger");
    await click(el.querySelector('input[value="sexual_content"]'));
    await click(button(el, "Send report"));
    await settle();
    const form = sent[0];
    expect(form).toBeInstanceOf(FormData);
    if (!(form instanceof FormData)) return;
    expect(form.get("rouletteId")).toBe("r-abc");
    expect(form.get("reportedUserId")).toBeNull();
    expect(form.get("evidence")).toBeInstanceOf(Blob);
    // What ran the nudity check goes with the still (issue 21).
    expect(form.get("stillBackend")).toBe("wasm-simd");
    await click(button(el, "Block"));
    await settle();
    expect(sent[1]).toEqual({ rouletteId: "r-abc" });
  });

  test("shows the server's refusal in the dialog and keeps the form", async () => {
    const { controller, toasts } = harness({
      "POST /api/reports": () => json(429, { error: "Too many reports. Try again later.", code: "rate_limited" }),
    });
    const el = await render(controller, <ReportDialog target={target} onClose={() => {}} />);
    await click(el.querySelector('input[value="other"]'));
    await click(button(el, "Send report"));
    await settle();
    expect(text(el.querySelector('[role="alert"]'))).toBe("Too many reports. Try again later.");
    expect(text(el.querySelector("h2"))).toBe("Report Bob");
    expect(toasts).toEqual([]);
    expect(button(el, "Send report")?.disabled).toBe(false);
  });

  test("Escape closes it", async () => {
    const { controller } = harness();
    let closed = 0;
    const el = await render(controller, <ReportDialog target={target} onClose={() => closed++} />);
    await act(async () => {
      el.querySelector('[role="dialog"]')?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    expect(closed).toBe(1);
  });
});

describe("blocking from the chat header", () => {
  const routes = {
    "GET /api/messages/2": () => ({ messages: [], hasMore: false, oldestMessageTime: null, contact: true }),
    "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
    "POST /api/blocks": () => json(201, { block: { user: bob, created_at: "2026-11-22T10:00:00.000Z" } }),
    "DELETE /api/blocks/2": () => new Response(null, { status: 204 }),
    "GET /api/users": () => ({ users: [bob], total: 1, online: 1 }),
    "GET /api/messages/chat-users-with-messages": () => ({ users: [{ ...bob, is_contact: true }] }),
  };

  test("asks first, then hides the conversation and shows the blocked notice with Unblock", async () => {
    const { controller, calls } = harness(routes);
    controller.store.chats.value = [bob];
    controller.store.users.value = [bob];
    controller.select(bob, "chat");
    const el = await render(
      controller,
      <>
        <ChatWindow contact={bob} />
        <SafetyDialogs />
      </>,
    );
    await click(button(el, "More options for Bob"));
    expect(Array.from(el.querySelectorAll('[role="menuitem"]')).map((i) => text(i))).toEqual(["View profile", "Block", "Report"]);
    await click(button(el, "Block"));
    await settle();
    expect(text(el.querySelector('[role="alertdialog"] h2'))).toBe("Block Bob?");
    expect(text(el.querySelector('[role="alertdialog"] p'))).toBe(
      "They won't be able to message or call you, and you won't see each other.",
    );
    await click(el.querySelector('[role="alertdialog"] .is-danger'));
    await settle();
    expect(calls).toContain("POST /api/blocks");
    expect(controller.store.chats.value).toEqual([]);
    expect(controller.store.users.value).toEqual([]);
    expect(el.querySelector('[role="alertdialog"]')).toBeNull();
    expect(text(el.querySelector(".conversation-notice"))).toContain("You blocked Bob. Unblock to send messages.");
    expect(el.querySelector(".message-input")).toBeNull();
    // The header stops showing presence it no longer hears, and offers no call.
    expect(text(el.querySelector(".chat-header .status-text"))).toBe("Blocked");
    expect(el.querySelector('[aria-label="Video call Bob"]')).toBeNull();

    await click(button(el, "Unblock"));
    await settle();
    expect(calls).toContain("DELETE /api/blocks/2");
    expect(el.querySelector(".conversation-notice")).toBeNull();
    expect(el.querySelector(".message-input")).not.toBeNull();
    expect(el.querySelector('[aria-label="Video call Bob"]')).not.toBeNull();
    expect(controller.store.chats.value.map((u) => u.id)).toEqual([2]);
  });

  test("a block made in another tab hides the person at once, and Unblock brings them back", async () => {
    const { controller, calls } = harness(routes);
    const handlers = new Map<string, (data: unknown) => void>();
    attachChatEvents(controller, {
      on: (event: string, handler: (data: never) => void) => {
        handlers.set(event, (data) => handler(data as never));
        return () => handlers.delete(event);
      },
    } as Parameters<typeof attachChatEvents>[1]);
    controller.store.chats.value = [bob];
    controller.store.users.value = [bob];
    handlers.get("block_changed")?.({ userId: 2, blocked: true });
    expect(controller.store.chats.value).toEqual([]);
    expect(controller.store.users.value).toEqual([]);
    handlers.get("block_changed")?.({ userId: 2, blocked: false });
    await wait(10);
    expect(calls).toContain("GET /api/users?limit=50");
    expect(controller.store.users.value.map((u) => u.id)).toEqual([2]);
  });

  test("a refused send shows the server's words above the input", async () => {
    const { controller } = harness({
      ...routes,
      "POST /api/messages/upload": () => json(403, { error: "Bob only accepts messages from people they have written to.", code: "not_accepting" }),
    });
    controller.select(bob, "chat");
    const el = await render(controller, <ChatWindow contact={bob} />);
    await act(async () => {
      await controller.uploadFiles([new File(["hi"], "a.txt", { type: "text/plain" })]);
    });
    expect(text(el.querySelector('.conversation-notice[role="alert"]'))).toBe(
      "Bob only accepts messages from people they have written to.",
    );
    expect(el.querySelector(".message-input")).not.toBeNull();
  });

  test("a refused text comes back into the message box, so nothing typed is lost", async () => {
    const h = harness(routes);
    h.socket.request = (async () => {
      throw new AckError("not_accepting", "This person only accepts messages from people they have written to");
    }) as typeof h.socket.request;
    h.controller.select(bob, "chat");
    const el = await render(h.controller, <ChatWindow contact={bob} />);
    await act(async () => {
      expect(h.controller.sendText("  Are you free tonight?  ")).toBe(true);
    });
    await settle();
    expect(text(el.querySelector('.conversation-notice[role="alert"]'))).toBe(
      "This person only accepts messages from people they have written to",
    );
    expect(el.querySelector<HTMLTextAreaElement>(".message-input textarea")?.value).toBe("Are you free tonight?");
  });

  test("a refusal because Bob blocked me says so without an Unblock button", async () => {
    const { controller } = harness({
      ...routes,
      "GET /api/blocks": () => ({ users: [], strangers: 0 }),
      "POST /api/messages/upload": () => json(403, { error: "You can't send messages to this person.", code: "blocked" }),
    });
    controller.select(bob, "chat");
    const el = await render(controller, <ChatWindow contact={bob} />);
    await act(async () => {
      await controller.uploadFiles([new File(["hi"], "a.txt", { type: "text/plain" })]);
    });
    await settle();
    expect(text(el.querySelector(".conversation-notice"))).toBe("You can't send messages to this person.");
    expect(button(el.querySelector(".conversation-notice") ?? el, "Unblock")).toBeNull();
  });
});

describe("a message's menu", () => {
  test("reports that one message, and my own messages have no menu", async () => {
    let body: unknown = null;
    const { controller } = harness({
      "POST /api/reports": (init) => {
        body = bodyOf(init);
        return json(201, { report: { id: 3, status: "open", created_at: "2026-11-22T10:00:00.000Z" } });
      },
    });
    const theirs = message({ id: 77, content: "buy followers now" });
    const mine = message({ id: 78, sender_id: 1, receiver_id: 2, sender_name: "Me" });
    const el = await render(
      controller,
      <>
        <MessageBubble item={{ kind: "single", key: "a", message: mine }} own />
        <MessageBubble item={{ kind: "single", key: "b", message: theirs }} own={false} />
        <SafetyDialogs />
      </>,
    );
    // Both have a menu (Reply, React...), only the other person's offers Report.
    const theirRow = el.querySelector('[data-message-id="77"]')!;
    expect(el.querySelectorAll(".message-menu")).toHaveLength(2);
    await click(button(el.querySelector('[data-message-id="78"]')!, "Message options"));
    expect(button(el, "Report message")).toBeNull();
    await click(button(theirRow, "Message options"));
    await click(button(el, "Report message"));
    await settle();
    expect(text(el.querySelector('[role="dialog"] h2'))).toBe("Report Bob");
    await click(el.querySelector('input[value="spam"]'));
    await click(button(el, "Send report"));
    await settle();
    expect(body).toEqual({ reportedUserId: 2, context: "message", reason: "spam", messageId: 77 });
  });
});

describe("Blocked people", () => {
  test("lists whom I blocked with the date, unblocks, and counts roulette strangers", async () => {
    let blockedBob = true;
    const { controller, calls } = harness({
      "GET /api/blocks": () => ({
        users: blockedBob ? [{ ...bob, blocked_at: "2026-11-20T10:00:00.000Z" }] : [],
        strangers: 2,
      }),
      "DELETE /api/blocks/2": () => {
        blockedBob = false;
        return new Response(null, { status: 204 });
      },
      "GET /api/users": () => ({ users: [bob], total: 1, online: 1 }),
      "GET /api/messages/chat-users-with-messages": () => ({ users: [] }),
    });
    const el = await render(controller, <BlockedPeople />);
    await settle();
    expect(text(el.querySelector(".blocked-row"))).toContain("Bob");
    expect(text(el.querySelector(".blocked-row"))).toContain("Blocked November 20, 2026");
    expect(text(el)).toContain("You also blocked 2 strangers in Video Roulette.");
    await click(button(el, "Unblock Bob"));
    await settle();
    expect(calls).toContain("DELETE /api/blocks/2");
    expect(el.querySelector(".blocked-row")).toBeNull();
  });

  test("says so when nobody is blocked, and has no strangers line at zero", async () => {
    const { controller } = harness({ "GET /api/blocks": () => ({ users: [], strangers: 0 }) });
    const el = await render(controller, <BlockedPeople />);
    await settle();
    expect(text(el)).toContain("You haven't blocked anyone.");
    expect(text(el)).not.toContain("Video Roulette");
  });
});

describe("Privacy", () => {
  test("saves 'People I have written to' at once and confirms it", async () => {
    let body: unknown = null;
    const { controller, toasts } = harness({
      "PUT /api/users/privacy": (init) => {
        body = bodyOf(init);
        return { user: me({ allow_from: "contacts" }) };
      },
    });
    const el = await render(controller, <PrivacySettings />);
    expect(text(el)).toContain("Who can message and call me");
    const everyone = el.querySelector<HTMLInputElement>('input[value="everyone"]')!;
    const contacts = el.querySelector<HTMLInputElement>('input[value="contacts"]')!;
    expect(everyone.checked).toBe(true);
    expect(text(contacts.closest("label"))).toContain("People I have written to");
    await click(contacts);
    await settle();
    expect(body).toEqual({ allowFrom: "contacts" });
    expect(controller.store.me.value.allow_from).toBe("contacts");
    expect(contacts.checked).toBe(true);
    expect(toasts).toEqual(["success:Privacy settings saved"]);
  });
});

describe("pictures from strangers", () => {
  const photo = (overrides: Parameters<typeof message>[0] = {}) =>
    message({ message_type: "image", file_name: "beach.jpg", file_path: "f/beach.jpg", file_size: 2048, sender_name: "Bob", ...overrides });

  test("come blurred with who sent them and 'Tap to view', and a tap reveals them", async () => {
    const { controller } = harness();
    const picture = photo();
    controller.store.messages.value = [picture];
    const el = await render(controller, <ImageGrid images={[picture]} />);
    expect(el.querySelector(".image-grid")?.className).toContain("is-blurred");
    expect(text(el.querySelector(".blur-cover"))).toContain("Photo from Bob");
    expect(text(el.querySelector(".blur-cover"))).toContain("Tap to view");
    await click(el.querySelector(".image-tile"));
    expect(controller.store.lightbox.value).toBeNull();
    await click(el.querySelector(".blur-cover"));
    expect(el.querySelector(".image-grid")?.className).not.toContain("is-blurred");
    expect(el.querySelector(".blur-cover")).toBeNull();
    await click(el.querySelector(".image-tile"));
    expect(controller.store.lightbox.value?.images).toHaveLength(1);
  });

  // These two are about the stranger cover alone: the nudity classifier's cover is off here
  // (tests/islands/nudity-pictures.test.tsx has it on).
  test("show normally once I have written to the sender, and mine are never blurred", async () => {
    const { controller } = harness({}, me({ blur_nudity: false }));
    const theirs = photo();
    const mine = photo({ sender_id: 1, receiver_id: 2, sender_name: "Me" });
    const el = await render(
      controller,
      <>
        <ImageGrid images={[mine]} />
        <ImageGrid images={[theirs]} />
      </>,
    );
    const grids = el.querySelectorAll(".image-grid");
    expect(grids[0]?.className).not.toContain("is-blurred");
    expect(grids[1]?.className).toContain("is-blurred");
    await act(async () => {
      controller.store.selected.value = bob;
      controller.sendText("hi Bob");
      await wait(5);
    });
    expect(controller.store.contacts.value[2]).toBe(true);
    expect(el.querySelectorAll(".image-grid.is-blurred")).toHaveLength(0);
  });

  test("follow the server's contact flag when a conversation opens", async () => {
    const picture = photo();
    const { controller } = harness({
      "GET /api/messages/2": () => ({ messages: [picture], hasMore: false, oldestMessageTime: null, contact: true }),
      "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
    }, me({ blur_nudity: false }));
    controller.select(bob, "chat");
    await settle();
    const el = await render(controller, <ImageGrid images={[picture]} />);
    expect(el.querySelector(".image-grid")?.className).not.toContain("is-blurred");
  });
});

describe("the 18+ gate", () => {
  /** Asks inside act (the question shows a dialog) and waits for the dialog's chunk. */
  const ask = async (controller: ChatController) => {
    let answer: Promise<boolean> = Promise.resolve(false);
    await act(async () => {
      answer = ensureAdult(controller);
      await wait(30);
    });
    // Wrapped: an async function returning the promise itself would wait for the answer.
    return { answer };
  };

  test("lets a confirmed adult through at once, without a dialog", async () => {
    const { controller } = harness();
    const el = await render(controller, <AdultGate />);
    expect(await ensureAdult(controller)).toBe(true);
    expect(el.querySelector('[role="dialog"]')).toBeNull();
  });

  test("asks an unconfirmed account once, with Confirm disabled until the box is ticked", async () => {
    const { controller, calls } = harness(
      { "POST /api/users/confirm-adult": () => ({ user: me({ adult_confirmed_at: "2026-11-22T10:00:00.000Z" }) }) },
      me({ adult_confirmed_at: null }),
    );
    const el = await render(controller, <AdultGate />);
    const { answer } = await ask(controller);
    expect(text(el.querySelector("h2"))).toBe("Confirm your age");
    expect(text(el.querySelector('[role="dialog"] p'))).toBe(
      "Video calls and Video Roulette are for adults only. Please confirm that you are 18 or older and accept the Terms.",
    );
    expect(text(el.querySelector("label"))).toBe("I am 18 or older and I accept the Terms");
    expect(el.querySelector('a[href="/terms"]')).not.toBeNull();
    expect(button(el, "Confirm")?.disabled).toBe(true);
    await click(el.querySelector('input[type="checkbox"]'));
    await click(button(el, "Confirm"));
    expect(await answer).toBe(true);
    expect(calls).toContain("POST /api/users/confirm-adult");
    expect(controller.store.me.value.adult_confirmed_at).not.toBeNull();
    await settle();
    expect(el.querySelector('[role="dialog"]')).toBeNull();
    expect(await ensureAdult(controller)).toBe(true);
  });

  test("Cancel answers no and confirms nothing", async () => {
    const { controller, calls } = harness({}, me({ adult_confirmed_at: null }));
    const el = await render(controller, <AdultGate />);
    const { answer } = await ask(controller);
    await click(button(el, "Cancel"));
    expect(await answer).toBe(false);
    expect(calls).toEqual([]);
    expect(controller.store.me.value.adult_confirmed_at).toBeNull();
  });
});
