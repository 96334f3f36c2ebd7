// While the socket reconnects the sidebar says "Reconnecting..."; once the attempts have run out
// it says "Offline" (and ChatApp raises "Connection error. Please refresh the page.", whose toast
// chat-toaster.test.ts covers). DECISIONS, issue 19.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import Sidebar from "../../islands/chat/Sidebar.tsx";
import { chatDom, harness, text } from "./harness.ts";

const { render } = chatDom();

describe("the connection banner", () => {
  test("reads Reconnecting... while attempts remain, Offline once they have run out, and goes when connected", async () => {
    const { controller } = harness();
    controller.store.ready.value = true;
    controller.store.connection.value = "connected";
    const el = await render(controller, <Sidebar />);
    const banner = () => el.querySelector(".connection-banner");
    expect(banner()).toBeNull();
    act(() => {
      controller.store.connection.value = "reconnecting";
    });
    expect(text(banner())).toBe("Reconnecting...");
    act(() => {
      controller.store.connection.value = "failed";
    });
    expect(text(banner())).toBe("Offline");
    act(() => {
      controller.store.connection.value = "connected";
    });
    expect(banner()).toBeNull();
  });
});
