// What stands in for, or above, the input when a conversation cannot go on: I blocked them (with
// Unblock), or the server refused my last send (they blocked me, or accept only their contacts).
import { useSignals } from "@preact/signals-react/runtime";
import { unblockUser } from "../lib/safety.ts";
import type { ChatUser } from "../lib/types.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

/** True when I blocked this contact: the window shows the notice instead of the input. */
export function useBlockedByMe(contact: ChatUser): boolean {
  useSignals();
  return useChat().store.blocked.value[contact.id] === true;
}

export default function ConversationNotice({ contact }: { contact: ChatUser }) {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  if (store.blocked.value[contact.id] === true) {
    return (
      <div className="conversation-notice is-blocked" role="status">
        <Icon name="block" size={18} />
        <span>{t("chat.you_blocked", { name: contact.name })}</span>
        <button type="button" className="button small" onClick={() => void unblockUser(controller, contact)}>
          {t("chat.unblock")}
        </button>
      </div>
    );
  }
  const refusal = store.refusal.value;
  if (refusal?.contactId !== contact.id) return null;
  return (
    <div className="conversation-notice" role="alert">
      <Icon name="shield" size={18} />
      <span>{refusal.text}</span>
    </div>
  );
}
