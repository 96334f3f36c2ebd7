// The message area: skeletons, messages, the typing bubble, and the scroll rules of spec
// section 4 (stay at the bottom unless scrolled up; load older pages above 50% going up).
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { groupMessages } from "../lib/files.ts";
import type { ChatUser } from "../lib/types.ts";
import { useChat } from "./context.ts";
import MessageBubble from "./MessageBubble.tsx";

/** "At bottom" tolerance in pixels. */
const AT_BOTTOM_PX = 10;
const RELATIVE_TIME_REFRESH_MS = 60_000;
const HIGHLIGHT_MS = 2500;

function Skeletons({ seed }: { seed: number }) {
  // Between 2 and 5 placeholders, varied per contact so the screen does not look stamped.
  const count = 2 + (seed % 4);
  return (
    <div className="message-skeletons" role="status">
      <span className="visually-hidden">{t("chat.loading_messages")}</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={`message-row ${i % 2 ? "is-own" : ""}`}>
          <span className="skeleton skeleton-bubble" style={{ width: `${40 + ((seed + i * 13) % 35)}%` }} />
        </div>
      ))}
    </div>
  );
}

export default function MessageList({ contact }: { contact: ChatUser }) {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastTop = useRef(0);
  const lastHeight = useRef(0);
  const firstId = useRef<number | null>(null);
  const [, setClock] = useState(0);
  const messages = store.messages.value;
  const display = useMemo(() => groupMessages(messages), [messages]);
  const typing = store.typing.value[contact.id] === true;
  const loading = store.messagesLoading.value && messages.length === 0;
  const ownTick = store.ownMessageTick.value;
  const meId = store.me.value.id;

  const toBottom = () => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
  };

  // New content: keep the reader's place when older messages were put on top, follow the
  // conversation when at the bottom, and leave a reader who scrolled up alone.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = messages[0]?.id ?? null;
    const prepended = firstId.current !== null && first !== firstId.current && lastHeight.current > 0;
    if (prepended && !atBottom.current) el.scrollTop += el.scrollHeight - lastHeight.current;
    else if (atBottom.current && !store.loadingOlder.value) toBottom();
    firstId.current = first;
    lastHeight.current = el.scrollHeight;
  }, [messages, typing, store]);

  // My own sent or uploaded messages always scroll to the bottom.
  useLayoutEffect(() => {
    if (ownTick > 0) toBottom();
  }, [ownTick]);

  useEffect(() => {
    const el = ref.current;
    // Images change the height as they load; stay at the bottom if the reader was there.
    const onLoad = () => {
      if (atBottom.current) toBottom();
      if (el) lastHeight.current = el.scrollHeight;
    };
    el?.addEventListener("load", onLoad, true);
    const timer = setInterval(() => setClock((n) => n + 1), RELATIVE_TIME_REFRESH_MS);
    return () => {
      el?.removeEventListener("load", onLoad, true);
      clearInterval(timer);
    };
  }, []);

  // A tapped quote: its original, loaded by now, is brought to the middle and marked for a moment.
  const highlight = store.highlight.value;
  useEffect(() => {
    if (highlight === null) return;
    const row = ref.current?.querySelector<HTMLElement>(`[data-message-id="${highlight}"]`);
    if (row) {
      atBottom.current = false;
      row.scrollIntoView?.({ block: "center" });
    }
    const timer = setTimeout(() => {
      if (store.highlight.value === highlight) store.highlight.value = null;
    }, HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlight, store]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const top = el.scrollTop;
    atBottom.current = el.scrollHeight - top - el.clientHeight <= AT_BOTTOM_PX;
    const goingUp = top < lastTop.current;
    lastTop.current = top;
    lastHeight.current = el.scrollHeight;
    const range = el.scrollHeight - el.clientHeight;
    if (goingUp && range > 0 && top / range < 0.5) void controller.loadOlder();
  };

  return (
    <div
      ref={ref}
      className="message-list"
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label={t("chat.messages_with", { name: contact.name })}
      tabIndex={0}
    >
      {loading ? (
        <Skeletons seed={contact.id} />
      ) : display.length === 0 ? (
        <div className="center-screen no-messages">
          <p className="empty-title">{t("chat.no_messages")}</p>
          <p className="empty-text">{t("chat.say_hello", { name: contact.name })}</p>
        </div>
      ) : (
        <>
          {store.loadingOlder.value && <div className="older-spinner" role="status" aria-label={t("chat.loading_older")} />}
          {display.map((item) => (
            <MessageBubble key={item.key} item={item} own={item.message.sender_id === meId} />
          ))}
        </>
      )}
      {typing && (
        <div className="message-row typing-row">
          <span className="message-avatar" aria-hidden="true">{contact.name.slice(0, 1).toUpperCase()}</span>
          <span className="bubble typing-bubble" role="status">
            <span className="visually-hidden">{t("chat.is_typing", { name: contact.name })}</span>
            <span className="dot" />
            <span className="dot" />
            <span className="dot" />
          </span>
        </div>
      )}
    </div>
  );
}
