// One row of the conversation: text, a file, an image, a voice message or a group of files, with
// the quote it replies to, "edited", and its reactions underneath. Its menu (keyboard and screen
// reader reachable, like every menu here) offers Reply, React, Edit and Delete on my messages and
// Report on the other person's; on a touch screen a swipe to the right replies. What a moderator
// removed or the sender deleted says so in its place, on both sides.
import { useSignals } from "@preact/signals-react/runtime";
import { useRef, useState, type PointerEvent } from "react";
import { fileUrl, isImageMessage } from "../lib/files.ts";
import { initial, relativeTime } from "../lib/format.ts";
import { canEdit, deleteForEveryone, deletedText, quoteText, react, showMessage, startEdit, startReply } from "../lib/message-actions.ts";
import { groupTickState } from "../lib/messages.ts";
import { openDialog } from "../lib/safety.ts";
import type { DisplayMessage, Message } from "../lib/types.ts";
import { useChat } from "./context.ts";
import DeleteConfirm from "./DeleteConfirm.tsx";
import FileCard from "./FileCard.tsx";
import ImageGrid from "./ImageGrid.tsx";
import Menu, { type MenuItem } from "./Menu.tsx";
import { ReactionChips, ReactionPicker } from "./Reactions.tsx";
import Ticks from "./Ticks.tsx";
import VoicePlayer from "./VoicePlayer.tsx";
import { removedText } from "../moderation/texts.ts";
import { t } from "../i18n.ts";

const Removed = () => <p className="message-text is-removed">{removedText()}</p>;
const Deleted = () => <p className="message-text is-deleted">{deletedText()}</p>;

/** How far a finger must pull a bubble to the right to reply to it. */
const SWIPE_REPLY_PX = 60;

function Files({ files }: { files: Message[] }) {
  const images = files.filter(isImageMessage);
  const others = files.filter((f) => !isImageMessage(f));
  return (
    <>
      {images.length > 0 && <ImageGrid images={images} />}
      {others.map((f) => (
        <FileCard key={f.id} name={f.file_name ?? t("chat.unnamed_file")} size={f.file_size} href={fileUrl(f)} />
      ))}
    </>
  );
}

function ReplyQuote({ message }: { message: Message }) {
  const controller = useChat();
  const quote = message.reply_to;
  if (!quote) return null;
  // An empty text quote: the original was deleted (or removed) since.
  const shown = quote.content || quote.message_type !== "text" ? quoteText({ ...quote, deleted_at: null, is_removed: false }) : deletedText();
  return (
    <button type="button" className="reply-quote" onClick={() => void showMessage(controller, quote.id)} aria-label={t("chat.quote_label", { title: t("chat.replying_to", { name: quote.sender_name }), text: shown })}>
      <span className="reply-quote-name">{quote.sender_name}</span>
      <span className="reply-quote-text">{shown}</span>
    </button>
  );
}

/** A finger pulling the bubble right: it follows up to a point, and past SWIPE_REPLY_PX it replies. */
function useSwipeToReply(onReply: () => void) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const [dx, setShown] = useState(0);
  // The distance is read from a ref: several moves may come before React renders again.
  const pulled = useRef(0);
  const setDx = (value: number) => {
    pulled.current = value;
    setShown(value);
  };
  const end = () => {
    if (start.current && pulled.current >= SWIPE_REPLY_PX) onReply();
    start.current = null;
    setDx(0);
  };
  return {
    dx,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
        if (event.pointerType === "touch") start.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
      },
      onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
        const s = start.current;
        if (!s || s.id !== event.pointerId) return;
        const x = event.clientX - s.x;
        // A mostly vertical move is a scroll, not a reply.
        if (Math.abs(event.clientY - s.y) > Math.abs(x)) {
          start.current = null;
          setDx(0);
          return;
        }
        setDx(Math.max(0, Math.min(x, SWIPE_REPLY_PX * 1.5)));
      },
      onPointerUp: end,
      onPointerCancel: () => {
        start.current = null;
        setDx(0);
      },
    },
  };
}

export default function MessageBubble({ item, own }: { item: DisplayMessage; own: boolean }) {
  useSignals();
  const controller = useChat();
  const [picking, setPicking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const m = item.message;
  const meId = controller.store.me.value.id;
  const highlighted = controller.store.highlight.value === m.id;
  const all = item.kind === "file_group" ? item.files : m.message_type === "file" || m.message_type === "image" ? [m] : [];
  // In a group a moderator may have removed some files and left the others.
  const files = all.filter((f) => !f.is_removed && !f.deleted_at);
  const deleted = m.deleted_at !== null && files.length === 0;
  const removed = !deleted && (m.is_removed || all.some((f) => f.is_removed));
  const hasFiles = files.length > 0;
  const voice = m.message_type === "voice" && !deleted && !removed;
  const gone = (removed || deleted) && !hasFiles;
  const swipe = useSwipeToReply(() => !gone && startReply(controller, m));
  const myReaction = m.reactions.find((g) => g.user_ids.includes(meId))?.emoji ?? null;

  const items: MenuItem[] = [];
  if (!gone) {
    items.push({ label: t("chat.action_reply"), onSelect: () => startReply(controller, m) });
    if (item.kind === "single") items.push({ label: t("chat.action_react"), onSelect: () => setPicking(true) });
    if (own && canEdit(m, meId)) items.push({ label: t("chat.action_edit"), onSelect: () => startEdit(controller, m) });
    if (own && item.kind === "single") items.push({ label: t("chat.action_delete"), danger: true, onSelect: () => setConfirming(true) });
  }
  if (!own && !gone) {
    items.push({
      label: t("chat.action_report"),
      danger: true,
      onSelect: () =>
        openDialog(controller, {
          kind: "report",
          target: { context: "message", name: m.sender_name, userId: m.sender_id, messageId: m.id },
        }),
    });
  }

  return (
    <div
      className={`message-row${own ? " is-own" : ""}${highlighted ? " is-highlighted" : ""}`}
      data-message-id={m.id}
      {...swipe.handlers}
      style={swipe.dx ? { transform: `translateX(${swipe.dx}px)` } : undefined}
    >
      {!own && (
        <span className="message-avatar" aria-hidden="true">
          {initial(m.sender_name)}
        </span>
      )}
      <div className="bubble-stack">
        <div className={`bubble${hasFiles ? " has-files" : ""}${voice ? " has-voice" : ""}${m.message_type === "emoji" && !gone ? " is-emoji" : ""}`}>
          {!own && <span className="sender-name">{m.sender_name}</span>}
          {!gone && <ReplyQuote message={m} />}
          {hasFiles && <Files files={files} />}
          {removed && <Removed />}
          {deleted && <Deleted />}
          {voice && <VoicePlayer message={m} />}
          {!hasFiles && !gone && !voice && <p className="message-text">{m.content}</p>}
          <span className="message-meta">
            {m.edited_at && !gone && <span className="edited-label">{t("chat.edited")}</span>}
            <time dateTime={m.created_at} title={new Date(m.created_at).toLocaleString()}>
              {relativeTime(m.created_at)}
            </time>
            {own && <Ticks state={groupTickState(all.length ? all : [m])} />}
          </span>
        </div>
        {!gone && <ReactionChips message={m} meId={meId} onReact={(emoji) => void react(controller, m, emoji)} />}
        {picking && (
          <ReactionPicker
            mine={myReaction}
            onPick={(emoji) => {
              setPicking(false);
              void react(controller, m, emoji);
            }}
            onClose={() => setPicking(false)}
          />
        )}
      </div>
      {items.length > 0 && <Menu label={t("chat.message_options")} className="message-menu" items={items} />}
      {confirming && <DeleteConfirm onConfirm={() => deleteForEveryone(controller, m)} onClose={() => setConfirming(false)} />}
    </div>
  );
}
