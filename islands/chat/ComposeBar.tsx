// Above the input: the quote of the message being answered, or "Editing", with a way out.
import { useSignals } from "@preact/signals-react/runtime";
import { cancelCompose, quoteText, showMessage } from "../lib/message-actions.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

export default function ComposeBar() {
  useSignals();
  const controller = useChat();
  const { replyTo, editing } = controller.store;
  const target = editing.value ?? replyTo.value;
  if (!target) return null;
  const title = editing.value
    ? t("chat.editing")
    : target.sender_id === controller.store.me.value.id
      ? t("chat.replying_to_self")
      : t("chat.replying_to", { name: target.sender_name });
  return (
    <div className={`compose-bar${editing.value ? " is-editing" : ""}`} role="status">
      <button type="button" className="compose-quote" onClick={() => void showMessage(controller, target.id)} aria-label={t("chat.quote_label", { title, text: quoteText(target) })}>
        <span className="compose-title">{title}</span>
        <span className="compose-text">{quoteText(target)}</span>
      </button>
      <button type="button" className="icon-button" aria-label={editing.value ? t("chat.cancel_edit") : t("chat.cancel_reply")} onClick={() => cancelCompose(controller)}>
        <Icon name="close" />
      </button>
    </div>
  );
}
