// The chat screen's components in happy-dom: tab badges, list states, the image grid, the input,
// avatar checks and the server render.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, spyOn, test } from "bun:test";
import { act } from "react";
import { renderToString } from "react-dom/server";
import ChatApp from "../../islands/ChatApp.tsx";
import ChatScreen from "../../islands/chat/ChatScreen.tsx";
import ChatWindow from "../../islands/chat/ChatWindow.tsx";
import ImageGrid from "../../islands/chat/ImageGrid.tsx";
import MessageInput from "../../islands/chat/MessageInput.tsx";
import ProfileView from "../../islands/chat/ProfileView.tsx";
import { uploadAvatar } from "../../islands/lib/account.ts";
import { me, message, user } from "./fixtures.ts";
import { chatDom, harness, settle, text, wait } from "./harness.ts";

const { render } = chatDom();

const bob = user({ id: 2, name: "Bob", is_online: true });
const baseRoutes = {
  "GET /api/users": () => ({ users: [bob], total: 1, online: 1 }),
  "GET /api/messages/chat-users-with-messages": () => ({ users: [] }),
  "GET /api/messages/unread/count": () => ({ unread_count: 0 }),
  "GET /api/messages/unread/per-user": () => ({ items: [] }),
};
/** Opening Bob's conversation loads its messages and marks them read. */
const conversationRoutes = {
  ...baseRoutes,
  "GET /api/messages/2": () => ({ messages: [], hasMore: false, oldestMessageTime: null }),
  "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
};

describe("the screen", () => {
  test("renders on the server with 'Loading...' and no browser APIs", () => {
    const html = renderToString(
      <ChatApp token="t" user={me()} flash={null} ice={{ iceServers: [], iceTransportPolicy: "all" }} />,
    );
    expect(html).toContain("Loading...");
    expect(html).toContain("All Users");
  });

  test("shows the welcome screen and the online counter counting yourself", async () => {
    const { controller } = harness(baseRoutes);
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      await controller.start();
    });
    expect(text(el)).toContain("Welcome to Web Chat");
    expect(text(el)).toContain("Select a user from the sidebar to start chatting");
    // The tab's name is its text, label first: "All Users", then "2" and a hidden " online".
    const tab = el.querySelector('[data-tab="users"]');
    expect(tab?.hasAttribute("aria-label")).toBe(false);
    expect(Array.from(tab?.children ?? [], (child) => child.textContent)).toEqual(["All Users", "2 online"]);
    controller.stop();
  });

  test("the Chats tab badge reads 99+ above 99", async () => {
    const { controller } = harness(baseRoutes);
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      controller.store.ready.value = true;
      controller.store.unreadTotal.value = 150;
    });
    expect(text(el.querySelector('[data-tab="chats"] .badge')!)).toBe("99+");
    await act(async () => {
      controller.store.unreadTotal.value = 99;
    });
    expect(text(el.querySelector('[data-tab="chats"] .badge')!)).toBe("99");
  });

  test("the Chats tab shows up to 8 skeleton rows, then its empty states", async () => {
    const { controller } = harness(baseRoutes);
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      controller.store.ready.value = true;
      controller.store.tab.value = "chats";
    });
    expect(el.querySelectorAll(".skeleton-row").length).toBe(8);
    await act(async () => {
      controller.store.chatsLoading.value = false;
    });
    expect(text(el)).toContain("No chat history");
    expect(text(el)).toContain("Start a conversation to see it here");
    await act(async () => {
      controller.store.chats.value = [{ ...bob, latest_message: message({ content: "x".repeat(60) }) }];
    });
    expect(text(el)).toContain(`${"x".repeat(50)}...`);
    const search = el.querySelector<HTMLInputElement>('input[placeholder="Search chats..."]')!;
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      setter?.call(search, "nobody");
      search.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(text(el)).toContain("No chats found");
    expect(text(el)).toContain("Try a different search term");
  });
});

describe("image grid", () => {
  const images = (n: number) =>
    Array.from({ length: n }, (_, i) => message({ id: 500 + i, message_type: "image", file_name: `p${i}.jpg`, file_path: `f/p${i}.jpg`, file_size: 2048 }));

  test("shows nine tiles with +N on the ninth and the many layout", async () => {
    const { controller } = harness(baseRoutes);
    const el = await render(controller, <ImageGrid images={images(12)} />);
    expect(el.querySelector(".image-grid")?.className).toContain("grid-many");
    expect(el.querySelectorAll(".image-tile").length).toBe(9);
    expect(text(el.querySelector(".tile-8 .more-overlay")!)).toBe("+3");
  });

  test("falls back to a file card when an image fails to load", async () => {
    const { controller } = harness(baseRoutes);
    const el = await render(controller, <ImageGrid images={images(2)} />);
    expect(el.querySelector(".image-grid")?.className).toContain("grid-two");
    await act(async () => {
      el.querySelector("img")?.dispatchEvent(new Event("error"));
    });
    expect(el.querySelectorAll(".file-card").length).toBe(1);
    expect(text(el.querySelector(".file-card")!)).toContain("2.0 KB");
  });

  test("opens the lightbox at the clicked image", async () => {
    // The nudity classifier's cover is off here (tests/islands/nudity-pictures.test.tsx has it on).
    const { controller } = harness(baseRoutes, me({ blur_nudity: false }));
    const list = images(3);
    controller.store.messages.value = list;
    // Bob's pictures open at once because I have written to him (a stranger's come blurred).
    controller.store.contacts.value = { 2: true };
    const el = await render(controller, <ImageGrid images={list} />);
    await act(async () => {
      el.querySelector<HTMLButtonElement>(".tile-1")?.click();
    });
    expect(controller.store.lightbox.value?.index).toBe(1);
    expect(controller.store.lightbox.value?.images).toHaveLength(3);
  });
});

describe("message input", () => {
  test("Enter sends, Shift+Enter does not, and typing starts once", async () => {
    const { controller, sent } = harness(conversationRoutes);
    controller.select(bob, "chat");
    const el = await render(controller, <MessageInput contact={bob} onAttach={() => {}} />);
    const area = el.querySelector("textarea")!;
    const type = async (value: string) =>
      act(async () => {
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(area, value);
        area.dispatchEvent(new Event("input", { bubbles: true }));
      });
    const key = async (shiftKey: boolean) =>
      act(async () => {
        area.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", shiftKey, bubbles: true, cancelable: true }));
      });
    await type("hello");
    await type("hello there");
    await key(true);
    expect(sent.filter((s) => s.event === "send_message")).toHaveLength(0);
    await key(false);
    await wait(5);
    expect(sent.map((s) => s.event)).toEqual(["typing_start", "send_message", "typing_stop"]);
    expect(area.value).toBe("");
  });
});

describe("message input details", () => {
  test("sending closes the emoji picker and leaves the focus in the message box", async () => {
    const { controller, sent } = harness(conversationRoutes);
    controller.select(bob, "chat");
    const el = await render(controller, <MessageInput contact={bob} onAttach={() => {}} />);
    const area = el.querySelector("textarea")!;
    await act(async () => {
      el.querySelector<HTMLButtonElement>(".emoji-button")!.click();
    });
    const popover = () => el.querySelector<HTMLElement>('[role="dialog"][aria-label="Emoji picker"]');
    // The picker is a lazy import of a large module (over 10 s under load): settle (an act that
    // lets React commit what resolved) until it is there, not for a guessed time.
    const loading = Date.now() + 45_000;
    while (popover() === null) {
      if (Date.now() > loading) throw new Error("the emoji picker did not load within 45 s");
      await settle();
    }
    expect(popover()?.hidden).toBe(false);
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(area, "hi 🙂");
      area.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => {
      el.querySelector<HTMLButtonElement>('button[aria-label="Send message"]')!.click();
    });
    expect(sent.filter((s) => s.event === "send_message")).toHaveLength(1);
    expect(popover()?.hidden).toBe(true);
    expect(el.querySelector(".emoji-button")?.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(area);
  }, 60_000);

  test("offers one Attach files button: the file input behind it is hidden from assistive technology", async () => {
    const { controller } = harness(conversationRoutes);
    controller.store.ready.value = true;
    controller.select(bob, "chat");
    const el = await render(controller, <ChatWindow contact={bob} />);
    await settle();
    const input = el.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.getAttribute("aria-hidden")).toBe("true");
    expect(input.tabIndex).toBe(-1);
    expect(input.hasAttribute("aria-label")).toBe(false);
    expect(exposedButtons(el, "Attach files")).toHaveLength(1);
  });
});

/** Buttons (a file input is one) named `name` that assistive technology is told about. */
function exposedButtons(root: HTMLElement, name: string): Element[] {
  return [...root.querySelectorAll('button, input[type="file"]')].filter(
    (el) => !el.closest('[aria-hidden="true"]') && (el.getAttribute("aria-label") ?? el.textContent?.trim()) === name,
  );
}

describe("profile view", () => {
  test("shows one presence line: Online, or 'Last seen recently' when offline", async () => {
    const { controller } = harness(baseRoutes);
    const online = await render(controller, <ProfileView user={bob} />);
    expect(text(online.querySelector(".presence-line"))).toBe("Online");
    expect(text(online)).not.toContain("Last seen");
    expect(text(online)).not.toContain("Offline");
    const away = await render(controller, <ProfileView user={{ ...bob, is_online: false }} />);
    expect(text(away.querySelector(".presence-line"))).toBe("Last seen recently");
    expect(text(away)).not.toContain("Online");
    expect(text(away)).not.toContain("Offline");
  });
});

describe("avatar upload", () => {
  test("alerts the spec's message and uploads nothing for a bad file", async () => {
    const { controller, calls } = harness(baseRoutes);
    const alert = spyOn(window, "alert").mockImplementation(() => {});
    await uploadAvatar(controller, new File(["x"], "me.pdf", { type: "application/pdf" }));
    expect(String(alert.mock.calls[0]?.[0])).toStartWith("Invalid file type!");
    alert.mockRestore();
    expect(calls.filter((c) => c.includes("avatar"))).toEqual([]);
  });

  test("shows the server's error text, else 'Failed to upload avatar'", async () => {
    const { controller } = harness({
      "POST /api/users/avatar/upload": () => new Response(JSON.stringify({ error: "Not an image", code: "unsupported" }), { status: 415 }),
    });
    const alert = spyOn(window, "alert").mockImplementation(() => {});
    await uploadAvatar(controller, new File(["x"], "me.png", { type: "image/png" }));
    expect(alert.mock.calls[0]?.[0]).toBe("Not an image");
    alert.mockRestore();
  });
});
