// The text chat under the roulette videos (issue 7): lines of the current pairing only, mine on
// the right and the stranger's on the left. It works only while connected, and the session
// clears it when the pairing ends, so nothing said to one stranger is seen with the next.
import { t } from "../i18n.ts";
import { useEffect, useId, useRef, useState } from "react";
import { ROULETTE_TEXT_MAX, sendableText, TEXT_COUNTER_FROM, type RouletteText } from "./roulette-state.ts";

interface Props {
  messages: readonly RouletteText[];
  /** Connected to a stranger: the box is usable. */
  enabled: boolean;
  /** Sends a line; false when it could not go (the box keeps the text). */
  onSend: (text: string) => boolean;
}

export default function RouletteChat({ messages, enabled, onSend }: Props) {
  const [draft, setDraft] = useState("");
  const list = useRef<HTMLOListElement>(null);
  const id = useId();

  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  const send = () => {
    if (sendableText(draft) && onSend(draft)) setDraft("");
  };

  return (
    <div className={`roulette-chat${enabled ? "" : " is-disabled"}`}>
      <ol ref={list} className="roulette-chat-list" aria-label={t("roulette.chat_messages")} aria-live="polite">
        {messages.length === 0 && (
          <li className="roulette-chat-empty">{enabled ? t("roulette.chat_hello") : t("roulette.chat_closed")}</li>
        )}
        {messages.map((m) => (
          <li key={m.id} className={`roulette-line ${m.mine ? "is-mine" : "is-theirs"}`}>
            <span className="visually-hidden">{m.mine ? t("roulette.chat_you") : t("roulette.chat_stranger")}</span>
            {m.text}
          </li>
        ))}
      </ol>
      <form
        className="roulette-chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-text`}>
          {t("roulette.chat_label")}
        </label>
        <input
          id={`${id}-text`}
          className="roulette-chat-input"
          type="text"
          value={draft}
          maxLength={ROULETTE_TEXT_MAX}
          placeholder={enabled ? t("chat.type_message") : t("roulette.not_connected")}
          autoComplete="off"
          disabled={!enabled}
          onChange={(e) => setDraft(e.target.value.slice(0, ROULETTE_TEXT_MAX))}
        />
        {draft.length >= TEXT_COUNTER_FROM && (
          <span className={`roulette-chat-counter${draft.length >= ROULETTE_TEXT_MAX ? " is-full" : ""}`} aria-live="polite">
            {draft.length}/{ROULETTE_TEXT_MAX}
          </span>
        )}
        <button type="submit" className="roulette-chat-send" disabled={!enabled || sendableText(draft) === null}>
          {t("roulette.send")}
        </button>
      </form>
    </div>
  );
}
