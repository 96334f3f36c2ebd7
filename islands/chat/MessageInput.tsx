// The input area: attach, an auto-growing text area (at most 120 px), emoji, send.
// Enter sends, Shift+Enter adds a line; typing start/stop follow lib/typing.ts.
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { TypingNotifier } from "../lib/typing.ts";
import type { ChatUser } from "../lib/types.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

const EmojiPopover = lazy(() => import("./EmojiPopover.tsx"));
const MAX_HEIGHT_PX = 120;

export default function MessageInput({ contact, onAttach }: { contact: ChatUser; onAttach: () => void }) {
  useSignals();
  const controller = useChat();
  const [text, setText] = useState("");
  const refusal = controller.store.refusal.value;
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [emojiLoaded, setEmojiLoaded] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const typing = useRef<TypingNotifier | null>(null);

  useEffect(() => {
    const notifier = new TypingNotifier((isTyping) =>
      controller.socket?.send(isTyping ? "typing_start" : "typing_stop", { receiverId: contact.id }),
    );
    typing.current = notifier;
    return () => notifier.stop();
  }, [controller, contact.id]);

  // A refused send hands its text back (the box was cleared when it left), so nothing typed is lost.
  useEffect(() => {
    if (!refusal?.draft || refusal.contactId !== contact.id) return;
    const { draft, ...shown } = refusal;
    controller.store.refusal.value = shown;
    setText((current) => current || draft);
  }, [refusal, contact.id, controller]);

  // Grow with the text up to 120 px, then scroll inside.
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  const change = (value: string) => {
    setText(value);
    typing.current?.input(value);
  };

  const send = () => {
    if (!controller.sendText(text)) return;
    typing.current?.stop();
    setText("");
    setEmojiOpen(false);
    // The send button disables itself once the box is empty: the next message starts in the box.
    area.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + emoji + text.slice(end);
    change(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const toggleEmoji = () => {
    setEmojiLoaded(true);
    setEmojiOpen((open) => !open);
  };

  // Escape from inside the picker hands the focus back to the button that opened it.
  const closeEmoji = (hadFocus: boolean) => {
    setEmojiOpen(false);
    if (hadFocus) emojiButton.current?.focus();
  };

  return (
    <div className="message-input">
      <button type="button" className="icon-button" aria-label={t("chat.attach")} onClick={onAttach}>
        <Icon name="attach" />
      </button>
      <div className="input-wrap">
        <textarea
          ref={area}
          rows={1}
          value={text}
          placeholder={t("chat.type_message")}
          aria-label={t("chat.message_to", { name: contact.name })}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          ref={emojiButton}
          type="button"
          className={`icon-button emoji-button${emojiOpen ? " is-active" : ""}`}
          aria-label={t("chat.emoji")}
          aria-expanded={emojiOpen}
          aria-haspopup="dialog"
          onClick={toggleEmoji}
        >
          <Icon name="smile" />
        </button>
        {/* The picker's code (about 88 KB) loads the first time it opens, then stays mounted. */}
        {emojiLoaded && (
          <Suspense fallback={emojiOpen ? <div className="emoji-popover emoji-loading">{t("common.loading")}</div> : null}>
            <EmojiPopover open={emojiOpen} onPick={insertEmoji} onClose={closeEmoji} />
          </Suspense>
        )}
      </div>
      <button type="button" className="send-button" aria-label={t("chat.send")} onClick={send} disabled={!text.trim()}>
        <Icon name="send" />
      </button>
    </div>
  );
}
