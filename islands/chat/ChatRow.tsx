// One conversation in the Chats list: preview, time label and unread count.
import { useSignals } from "@preact/signals-react/runtime";
import { isImageName } from "../lib/files.ts";
import { badgeText, chatTimeLabel, previewText } from "../lib/format.ts";
import { live } from "../lib/presence-book.ts";
import type { ChatUser, Message } from "../lib/types.ts";
import Avatar from "./Avatar.tsx";
import { useChat } from "./context.ts";
import Ticks from "./Ticks.tsx";
import { removedText } from "../moderation/texts.ts";
import { deletedText } from "../lib/message-actions.ts";
import { t } from "../i18n.ts";

function preview(message: Message): string {
  if (message.is_removed) return removedText();
  if (message.deleted_at) return deletedText();
  if (message.message_type === "voice") return `🎤 ${t("chat.voice_message")}`;
  if (message.message_type === "file" || message.message_type === "image") {
    return isImageName(message.file_name ?? message.file_path) ? t("chat.photo") : message.file_name ?? t("chat.file");
  }
  return previewText(message.content);
}

export default function ChatRow({ user: listed, now }: { user: ChatUser; now: Date }) {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const user = live(store.presence.value, listed);
  const meId = store.me.value.id;
  const selected = store.selected.value?.id === user.id;
  const latest = user.latest_message ?? null;
  const unread = badgeText(store.unreadByUser.value[user.id] ?? 0);
  const mine = latest?.sender_id === meId;
  return (
    <li>
      <button
        type="button"
        className={`row${selected ? " is-selected" : ""}${unread ? " has-unread" : ""}`}
        aria-current={selected ? "true" : undefined}
        onClick={() => controller.select(user, "chat")}
      >
        <Avatar name={user.name} url={user.avatar_url} online={user.is_online} />
        <span className="row-main">
          <span className="row-title">
            <span className="row-name">{user.name}</span>
            {latest && (
              <time className="row-time" dateTime={latest.created_at}>
                {chatTimeLabel(latest.created_at, now)}
              </time>
            )}
          </span>
          <span className="row-sub">
            {latest && mine && <Ticks message={latest} />}
            <span className="row-preview">
              {latest ? `${mine ? t("chat.you_prefix") : ""}${preview(latest)}` : `@${user.username}`}
            </span>
            {unread && (
              <>
                <span className="badge badge-unread">{unread}</span>
                <span className="visually-hidden">{t("chat.unread_suffix")}</span>
              </>
            )}
          </span>
        </span>
      </button>
    </li>
  );
}
