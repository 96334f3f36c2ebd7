// One row of the conversation: text, a file, an image or a group of files; someone else's
// message has a menu to report it. What a moderator removed says so in its place, on both sides.
import { fileUrl, isImageMessage } from "../lib/files.ts";
import { initial, relativeTime } from "../lib/format.ts";
import { groupTickState } from "../lib/messages.ts";
import { openDialog } from "../lib/safety.ts";
import type { DisplayMessage, Message } from "../lib/types.ts";
import { useChat } from "./context.ts";
import FileCard from "./FileCard.tsx";
import ImageGrid from "./ImageGrid.tsx";
import Menu from "./Menu.tsx";
import Ticks from "./Ticks.tsx";
import { REMOVED_TEXT } from "../moderation/texts.ts";

const Removed = () => <p className="message-text is-removed">{REMOVED_TEXT}</p>;

function Files({ files }: { files: Message[] }) {
  const images = files.filter(isImageMessage);
  const others = files.filter((f) => !isImageMessage(f));
  return (
    <>
      {images.length > 0 && <ImageGrid images={images} />}
      {others.map((f) => (
        <FileCard key={f.id} name={f.file_name ?? "file"} size={f.file_size} href={fileUrl(f)} />
      ))}
    </>
  );
}

export default function MessageBubble({ item, own }: { item: DisplayMessage; own: boolean }) {
  const controller = useChat();
  const m = item.message;
  const all = item.kind === "file_group" ? item.files : m.message_type === "file" || m.message_type === "image" ? [m] : [];
  // In a group a moderator may have removed some files and left the others.
  const files = all.filter((f) => !f.is_removed);
  const removed = m.is_removed || all.length > files.length;
  const hasFiles = files.length > 0;
  return (
    <div className={`message-row${own ? " is-own" : ""}`} data-message-id={m.id}>
      {!own && (
        <span className="message-avatar" aria-hidden="true">
          {initial(m.sender_name)}
        </span>
      )}
      <div className={`bubble${hasFiles ? " has-files" : ""}${m.message_type === "emoji" && !removed ? " is-emoji" : ""}`}>
        {!own && <span className="sender-name">{m.sender_name}</span>}
        {hasFiles && <Files files={files} />}
        {removed && <Removed />}
        {!hasFiles && !removed && <p className="message-text">{m.content}</p>}
        <span className="message-meta">
          <time dateTime={m.created_at} title={new Date(m.created_at).toLocaleString()}>
            {relativeTime(m.created_at)}
          </time>
          {own && <Ticks state={groupTickState(all.length ? all : [m])} />}
        </span>
      </div>
      {!own && !(removed && !hasFiles) && (
        <Menu
          label="Message options"
          className="message-menu"
          items={[
            {
              label: "Report message",
              danger: true,
              onSelect: () =>
                openDialog(controller, {
                  kind: "report",
                  target: { context: "message", name: m.sender_name, userId: m.sender_id, messageId: m.id },
                }),
            },
          ]}
        />
      )}
    </div>
  );
}
