// One conversation: header, messages, input, drag-and-drop of files, and the image lightbox.
import { useDropzone } from "react-dropzone";
import { MAX_UPLOAD_BYTES } from "../lib/files.ts";
import type { ChatUser } from "../lib/types.ts";
import ChatHeader from "./ChatHeader.tsx";
import { useChat } from "./context.ts";
import ConversationNotice, { useBlockedByMe } from "./ConversationNotice.tsx";
import Lightbox from "./Lightbox.tsx";
import MessageInput from "./MessageInput.tsx";
import MessageList from "./MessageList.tsx";
import { t } from "../i18n.ts";

export default function ChatWindow({ contact }: { contact: ChatUser }) {
  const controller = useChat();
  const blocked = useBlockedByMe(contact);
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    // Not `disabled`: that marks the whole window aria-disabled, its header menu included.
    onDrop: (accepted) => !blocked && void controller.uploadFiles(accepted),
    maxSize: MAX_UPLOAD_BYTES,
    multiple: true,
    // The attach button opens the file dialog; clicks and keys elsewhere belong to the chat.
    noClick: true,
    noKeyboard: true,
    // A pasted picture would be sent at once, unseen: only the attach button and drops send files.
    noPaste: true,
  });
  return (
    <section {...getRootProps({ className: "chat-window", role: "region", "aria-label": t("chat.chat_with", { name: contact.name }) })}>
      {/* The Attach files button opens it: hidden and without react-dropzone's own label, or it is
          announced as a second button. */}
      <input {...getInputProps({ "aria-hidden": true, "aria-label": undefined, tabIndex: -1 })} />
      <ChatHeader contact={contact} />
      <MessageList contact={contact} />
      <ConversationNotice contact={contact} />
      {!blocked && <MessageInput contact={contact} onAttach={open} />}
      {isDragActive && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-overlay-inner">{t("chat.drop_files")}</div>
        </div>
      )}
      <Lightbox />
    </section>
  );
}
