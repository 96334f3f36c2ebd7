// Above the input: the quote of the message being answered, or "Editing", with a way out.
import { useSignals } from "@preact/signals-react/runtime";
import { cancelCompose, quoteText, showMessage } from "../lib/message-actions.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";

export default function ComposeBar() {
  useSignals();
  const controller = useChat();
  const { replyTo, editing } = controller.store;
  const target = editing.value ?? replyTo.value;
  if (!target) return null;
  const title = editing.value ? "Editing message" : `Replying to ${target.sender_id === controller.store.me.value.id ? "yourself" : target.sender_name}`;
  return (
    <div className={`compose-bar${editing.value ? " is-editing" : ""}`} role="status">
      <button type="button" className="compose-quote" onClick={() => void showMessage(controller, target.id)} aria-label={`${title}: ${quoteText(target)}. Show that message`}>
        <span className="compose-title">{title}</span>
        <span className="compose-text">{quoteText(target)}</span>
      </button>
      <button type="button" className="icon-button" aria-label={editing.value ? "Cancel editing" : "Cancel reply"} onClick={() => cancelCompose(controller)}>
        <Icon name="close" />
      </button>
    </div>
  );
}
