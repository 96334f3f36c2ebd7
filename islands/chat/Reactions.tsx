// Reactions under a bubble (each emoji with its count; mine pressed, pressing it again takes it
// back) and the picker of the seven quick reactions that the message menu opens.
import { useEffect, useRef, type KeyboardEvent } from "react";
import { QUICK_REACTIONS } from "../lib/message-actions.ts";
import type { Message } from "../lib/types.ts";
import { t } from "../i18n.ts";

export function ReactionChips({ message, meId, onReact }: { message: Message; meId: number; onReact(emoji: string): void }) {
  if (message.reactions.length === 0) return null;
  return (
    <div className="reaction-chips" role="group" aria-label={t("chat.reactions")}>
      {message.reactions.map((group) => {
        const mine = group.user_ids.includes(meId);
        const count = group.user_ids.length;
        return (
          <button
            key={group.emoji}
            type="button"
            className={`reaction-chip${mine ? " is-mine" : ""}`}
            aria-pressed={mine}
            aria-label={t(mine ? "chat.reaction_chip_mine" : "chat.reaction_chip", { emoji: group.emoji, count })}
            onClick={() => onReact(group.emoji)}
          >
            <span aria-hidden="true">{group.emoji}</span>
            <span className="reaction-count" aria-hidden="true">{count}</span>
          </button>
        );
      })}
    </div>
  );
}

/** A row of the seven quick reactions: arrow keys move, Escape closes and gives focus back. */
export function ReactionPicker({ mine, onPick, onClose }: { mine: string | null; onPick(emoji: string): void; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("button")?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener("mousedown", onPointer);
    return () => document.removeEventListener("mousedown", onPointer);
  }, [onClose]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    event.preventDefault();
    const buttons = Array.from(ref.current?.querySelectorAll<HTMLElement>("button") ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    buttons[(at + (event.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length]?.focus();
  };
  return (
    <div className="reaction-picker" role="toolbar" aria-label={t("chat.react_with")} ref={ref} onKeyDown={onKeyDown}>
      {QUICK_REACTIONS.map((emoji) => (
        <button key={emoji} type="button" className={`reaction-option${mine === emoji ? " is-mine" : ""}`} aria-pressed={mine === emoji} aria-label={t("chat.react_emoji", { emoji })} onClick={() => onPick(emoji)}>
          {emoji}
        </button>
      ))}
    </div>
  );
}
