// One person in the All Users list.
import { useSignals } from "@preact/signals-react/runtime";
import { badgeText, countryLabel, flagEmoji, optionLabel, relativeTime } from "../lib/format.ts";
import { live } from "../lib/presence-book.ts";
import type { ChatUser } from "../lib/types.ts";
import Avatar from "./Avatar.tsx";
import { useChat } from "./context.ts";
import { t } from "../i18n.ts";

export default function UserRow({ user: listed }: { user: ChatUser }) {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const user = live(store.presence.value, listed);
  const selected = store.selected.value?.id === user.id;
  const unread = badgeText(store.unreadByUser.value[user.id] ?? 0);
  const details = [user.age ? String(user.age) : "", optionLabel(user.gender), user.country_name ? `${flagEmoji(user.country_code)} ${countryLabel(user.country_code, user.country_name)}` : ""]
    .filter(Boolean)
    .join(" · ");
  return (
    <li>
      <button
        type="button"
        className={`row${selected ? " is-selected" : ""}`}
        aria-current={selected ? "true" : undefined}
        onClick={() => controller.select(user, "profile")}
      >
        <Avatar name={user.name} url={user.avatar_url} online={user.is_online} />
        <span className="row-main">
          {/* The name has the first line to itself: beside "Seen less than a minute ago" a phone cut it. */}
          <span className="row-title">
            <span className="row-name">{user.name}</span>
          </span>
          <span className="row-sub">{details || `@${user.username}`}</span>
          <span className={`status-text row-status ${user.is_online ? "is-online" : ""}`}>
            {user.is_online ? t("chat.online") : t("chat.seen", { time: relativeTime(user.last_seen) })}
          </span>
        </span>
        {unread && (
          <>
            <span className="badge badge-unread">{unread}</span>
            <span className="visually-hidden">{t("chat.unread_suffix")}</span>
          </>
        )}
      </button>
    </li>
  );
}
