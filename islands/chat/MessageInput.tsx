// The input area: attach, an auto-growing text area (at most 120 px), emoji, send, and the voice
// recorder. Enter sends, Shift+Enter adds a line; typing start/stop follow lib/typing.ts. Above
// it, the quote being answered or the message being edited (the text area then holds its text).
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { cancelCompose, sendEdit } from "../lib/message-actions.ts";
import { TypingNotifier } from "../lib/typing.ts";
import ComposeBar from "./ComposeBar.tsx";
import VoiceRecord from "./VoiceRecord.tsx";
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
  const [recording, setRecording] = useState(false);
  const editing = controller.store.editing.value;
  const replyTo = controller.store.replyTo.value;
  const beforeEdit = useRef("");
  const wasEditing = useRef(false);
  const typed = useRef(text);
  typed.current = text;

  // Editing puts the message's text in the box, and what was typed before comes back after
  // (saved or cancelled); replying focuses the box.
  useEffect(() => {
    if (editing) {
      if (!wasEditing.current) beforeEdit.current = typed.current;
      setText(editing.content);
    } else if (wasEditing.current) {
      setText(beforeEdit.current);
      beforeEdit.current = "";
    }
    wasEditing.current = editing !== null;
    if (editing || replyTo) area.current?.focus();
  }, [editing, replyTo]);

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
    if (editing) {
      void sendEdit(controller, editing, text);
      area.current?.focus();
      return;
    }
    if (!controller.sendText(text)) return;
    typing.current?.stop();
    setText("");
    setEmojiOpen(false);
    // The send button disables itself once the box is empty: the next message starts in the box.
    area.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape" && (editing || replyTo)) {
      event.preventDefault();
      cancelCompose(controller);
      return;
    }
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
    <>
    <ComposeBar />
    <div className={`message-input${recording ? " is-recording" : ""}`}>
      {!recording && (
      <button type="button" className="icon-button" aria-label={t("chat.attach")} onClick={onAttach}>
        <Icon name="attach" />
      </button>
      )}
      <div className="input-wrap" hidden={recording}>
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
      {!editing && <VoiceRecord onActive={setRecording} />}
      {!recording && (
        <button type="button" className="send-button" aria-label={editing ? t("chat.save_edit") : t("chat.send")} onClick={send} disabled={!text.trim()}>
          <Icon name={editing ? "check" : "send"} />
        </button>
      )}
    </div>
    </>
  );
}
