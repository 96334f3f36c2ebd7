// The chat screen's toasts: 4 s for successes too (the spec's chat screen), below the chat header,
// and off the call screen.
import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, createElement } from "react";
import toast, { useToasterStore, type Toast } from "react-hot-toast";
import ChatToaster, { CHAT_TOAST_MS, TOASTS_TOP_PX, toastStyle } from "../../islands/chat/ChatToaster.tsx";
import { chatDom, harness } from "./harness.ts";

const { render } = chatDom();

let seen: Toast[] = [];
function Probe() {
  seen = useToasterStore().toasts;
  return null;
}
const visible = (text: string) => seen.some((t) => t.message === text && t.visible);

afterEach(() => {
  act(() => toast.remove());
  jest.useRealTimers();
});

async function screen() {
  const { controller } = harness();
  controller.store.ready.value = true;
  const el = await render(controller, createElement("div", null, createElement(ChatToaster), createElement(Probe)));
  return { controller, el };
}

describe("chat screen toasts", () => {
  test("a success toast stays 4 s, not the library's 2 s", async () => {
    jest.useFakeTimers();
    await screen();
    act(() => void toast.success("Profile updated successfully!"));
    act(() => jest.advanceTimersByTime(CHAT_TOAST_MS - 200));
    expect(visible("Profile updated successfully!")).toBe(true);
    act(() => jest.advanceTimersByTime(400));
    expect(visible("Profile updated successfully!")).toBe(false);
  });

  test("errors stay 4 s as well", async () => {
    jest.useFakeTimers();
    await screen();
    act(() => void toast.error("Connection error. Please refresh the page."));
    act(() => jest.advanceTimersByTime(CHAT_TOAST_MS - 200));
    expect(visible("Connection error. Please refresh the page.")).toBe(true);
    act(() => jest.advanceTimersByTime(400));
    expect(visible("Connection error. Please refresh the page.")).toBe(false);
  });

  test("sit top-right below the 64 px chat header", async () => {
    const { el } = await screen();
    act(() => void toast("Bob is now online"));
    const container = [...el.querySelectorAll<HTMLElement>("div")].find((d) => d.style.position === "fixed");
    expect(container?.style.top).toBe(`${TOASTS_TOP_PX}px`);
    expect(TOASTS_TOP_PX).toBeGreaterThan(64);
    expect(el.textContent).toContain("Bob is now online");
  });

  test("come and go where they stand, without sliding over the header, and a leaving one lets clicks through", () => {
    const showing = toastStyle({ height: 48, visible: true });
    const leaving = toastStyle({ height: 48, visible: false });
    expect(String(showing.animation)).toStartWith("chat-toast-in ");
    expect(String(leaving.animation)).toStartWith("chat-toast-out ");
    expect(leaving.pointerEvents).toBe("none");
    // Not yet measured: the library keeps it invisible, as it does for its own animation.
    expect(toastStyle({ height: undefined, visible: true })).toEqual({});
  });

  test("stay off the call screen, and show what is still due once it closes", async () => {
    const { controller, el } = await screen();
    act(() => {
      controller.store.callOpen.value = true;
    });
    act(() => void toast("Bob went offline"));
    expect(el.textContent).not.toContain("Bob went offline");
    act(() => {
      controller.store.callOpen.value = false;
    });
    expect(el.textContent).toContain("Bob went offline");
  });
});
