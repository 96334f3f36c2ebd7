// The chat screen's toasts: top-right for 4 s (spec section 4, "the chat screen shows them
// top-right for 4 s", which overrides the library's 2 s for successes). They start below the chat
// header, so they never cover its call button or menu, and stay off the call screen: a toast raised
// during a call shows when it ends if its time has not run out.
import { useSignals } from "@preact/signals-react/runtime";
import { Toaster, type ToasterProps } from "react-hot-toast";
import { useChat } from "./context.ts";

export const CHAT_TOAST_MS = 4000;
/** The chat header is 64 px tall (chat-window.css); the toasts start a small gap below it. */
export const TOASTS_TOP_PX = 72;

export const chatToasterProps = {
  position: "top-right",
  containerStyle: { top: TOASTS_TOP_PX },
  toastOptions: { success: { duration: CHAT_TOAST_MS } },
} satisfies ToasterProps;

export default function ChatToaster() {
  useSignals();
  const { store } = useChat();
  // Mounted after hydration: toasts exist only in the browser.
  if (!store.ready.value || store.callOpen.value) return null;
  return <Toaster {...chatToasterProps} />;
}
