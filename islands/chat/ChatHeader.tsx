// The conversation's header: back (on phones), who it is with, presence, the video call, and a
// menu with the profile, Block or Unblock, and Report.
import { useSignals } from "@preact/signals-react/runtime";
import { openDialog, unblockUser } from "../lib/safety.ts";
import { live } from "../lib/presence-book.ts";
import type { ChatUser } from "../lib/types.ts";
import { useChat } from "./context.ts";
import Menu from "./Menu.tsx";
import Avatar from "./Avatar.tsx";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

/** Detail of the "webchat:start-call" window event. */
export interface StartCallDetail {
  contactId: number;
  contactName: string;
}

export default function ChatHeader({ contact: selected }: { contact: ChatUser }) {
  useSignals();
  const controller = useChat();
  // `selected` is the contact as clicked; presence is read from the book, as the sidebar row reads it.
  const contact = live(controller.store.presence.value, selected);
  const blocked = controller.store.blocked.value[contact.id] === true;
  // A block hides presence both ways: the blocker stops hearing it, so a stale "Online" would lie.
  const online = contact.is_online && !blocked;
  const startCall = () => {
    // The call screens live in their own lazily loaded island, which listens for this event; the
    // chat screen only asks for a call and never loads call code itself.
    const detail: StartCallDetail = { contactId: contact.id, contactName: contact.name };
    window.dispatchEvent(new CustomEvent<StartCallDetail>("webchat:start-call", { detail }));
  };
  return (
    <header className="chat-header">
      <button type="button" className="icon-button back-button" aria-label={t("chat.back_to_list")} onClick={() => controller.clearSelection()}>
        <Icon name="back" />
      </button>
      <button
        type="button"
        className="chat-header-contact"
        onClick={() => controller.setViewMode("profile")}
      >
        <Avatar name={contact.name} url={contact.avatar_url} online={online} />
        <span className="chat-header-text">
          <span className="chat-header-name">{contact.name}</span>
          {blocked ? (
            <span className="status-text">{t("chat.blocked")}</span>
          ) : (
            <span className={`status-text ${online ? "is-online" : ""}`}>
              <span className={`presence-dot inline ${online ? "is-online" : "is-offline"}`} aria-hidden="true" />
              {online ? t("chat.online") : t("chat.offline")}
            </span>
          )}
          <span className="visually-hidden">{t("chat.view_profile_hint")}</span>
        </span>
      </button>
      {!blocked && (
        <button type="button" className="icon-button call-button" aria-label={t("chat.video_call", { name: contact.name })} onClick={startCall}>
          <Icon name="video" />
        </button>
      )}
      <Menu
        label={t("chat.more_options", { name: contact.name })}
        className="chat-header-menu"
        items={[
          { label: t("chat.view_profile"), onSelect: () => controller.setViewMode("profile") },
          blocked
            ? { label: t("chat.unblock"), onSelect: () => void unblockUser(controller, contact) }
            : { label: t("chat.block"), danger: true, onSelect: () => openDialog(controller, { kind: "block", user: contact }) },
          {
            label: t("chat.report"),
            danger: true,
            onSelect: () => openDialog(controller, { kind: "report", target: { context: "chat", name: contact.name, userId: contact.id } }),
          },
        ]}
      />
    </header>
  );
}
