// The emoji picker (300x400, search on, skin tones off, no preview), loaded on first use.
// Every opening puts the focus in its search; Escape closes it and says whether the focus was
// inside, so the opener can take it back (the picker stays mounted, only hidden).
import EmojiPicker, { type PickerLabels } from "emoji-picker-react";
import { useEffect, useRef, useState } from "react";
import { locale, t } from "../i18n.ts";
import { emojiCategories, emojiNames } from "./emoji-language.ts";

// English keeps the picker's own texts: its search's accessible name ("Type to search for an
// emoji") says more than the catalogue's "Search".
const labels = (): Partial<PickerLabels> | undefined =>
  locale() === "en"
    ? undefined
    : {
        searchPlaceholder: t("chat.emoji_search"),
        searchLabel: t("chat.emoji_search"),
        searchClear: t("chat.emoji_search_clear"),
        searchResultsNone: t("chat.emoji_none"),
        searchResultsOne: t("chat.emoji_results_one"),
        // The picker puts the number in for "%n".
        searchResultsMany: t("chat.emoji_results_many", { count: "%n" }),
        categoryNavigation: t("chat.emoji_categories"),
        loading: t("common.loading"),
        loadingError: t("chat.emoji_load_failed"),
        retryLoading: t("chat.emoji_retry"),
      };

interface Props {
  open: boolean;
  onPick: (emoji: string) => void;
  /** `hadFocus`: the focus was inside the picker, and is lost unless someone takes it. */
  onClose: (hadFocus: boolean) => void;
}

export default function EmojiPopover({ open, onPick, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // Made once: the page's language does not change while it is open, and a new list or loader on
  // every render would make the picker work them out (or fetch) again.
  const [config] = useState(() => ({ categories: emojiCategories(), emojiData: emojiNames(), labels: labels() }));

  // The picker's own autofocus runs once, when it mounts: every opening focuses its search here
  // (a frame later, so the first opening's picker is there).
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() => ref.current?.querySelector<HTMLInputElement>("input")?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    // The picker itself keeps an Escape that clears its search (it stops the event there).
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose(ref.current?.contains(document.activeElement) ?? false);
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node) || ref.current?.contains(target)) return;
      if (target instanceof Element && target.closest(".emoji-button")) return;
      onClose(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open, onClose]);

  return (
    <div ref={ref} className="emoji-popover" role="dialog" aria-label={t("chat.emoji_picker")} hidden={!open}>
      <EmojiPicker
        width={300}
        height={400}
        searchDisabled={false}
        skinTonesDisabled
        previewConfig={{ showPreview: false }}
        onEmojiClick={(data) => onPick(data.emoji)}
        lazyLoadEmojis
        categories={config.categories}
        emojiData={config.emojiData}
        labels={config.labels}
      />
    </div>
  );
}
