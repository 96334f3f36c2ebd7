// The chat screen's toasts: top-right for 4 s (spec section 4, "the chat screen shows them
// top-right for 4 s", which overrides the library's 2 s for successes). They sit below the chat
// header and fade in and out where they stand, so they never cover its call button or menu, and
// stay off the call screen: a toast raised during a call shows when it ends if its time has not run out.
import { useSignals } from "@preact/signals-react/runtime";
import type { CSSProperties } from "react";
import { ToastBar, Toaster, type Toast, type ToasterProps } from "react-hot-toast";
import { useChat } from "./context.ts";

export const CHAT_TOAST_MS = 4000;
/** The chat header is 64 px tall (chat-window.css); the toasts start a small gap below it. */
export const TOASTS_TOP_PX = 72;

export const chatToasterProps = {
  position: "top-right",
  containerStyle: { top: TOASTS_TOP_PX },
  toastOptions: { success: { duration: CHAT_TOAST_MS } },
} satisfies ToasterProps;

/**
 * The library slides a top toast down from twice its height above its place as it comes and up by
 * 1.5 times as it goes: from 72 px that crossed the 64 px header and took clicks meant for its call
 * button (issue 19). Ours only fade and shrink a little in place (chat.css keyframes), and one that
 * is leaving lets clicks through. Before the library has measured a toast it keeps it invisible.
 */
export function toastStyle(t: Pick<Toast, "height" | "visible">): CSSProperties {
  if (!t.height) return {};
  return t.visible
    ? { animation: "chat-toast-in 0.2s ease-out forwards" }
    : { animation: "chat-toast-out 0.3s ease-in forwards", pointerEvents: "none" };
}

export default function ChatToaster() {
  useSignals();
  const { store } = useChat();
  // Mounted after hydration: toasts exist only in the browser.
  if (!store.ready.value || store.callOpen.value) return null;
  return <Toaster {...chatToasterProps}>{(t) => <ToastBar toast={t} style={toastStyle(t)} />}</Toaster>;
}
