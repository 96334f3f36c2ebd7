// The emoji picker (300x400, search on, skin tones off, no preview), loaded on first use.
import EmojiPicker from "emoji-picker-react";
import { useEffect, useRef } from "react";

interface Props {
  open: boolean;
  onPick: (emoji: string) => void;
  onClose: () => void;
}

export default function EmojiPopover({ open, onPick, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target;
      if (!(target instanceof Node) || ref.current?.contains(target)) return;
      if (target instanceof Element && target.closest(".emoji-button")) return;
      onClose();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open, onClose]);

  return (
    <div ref={ref} className="emoji-popover" role="dialog" aria-label="Emoji picker" hidden={!open}>
      <EmojiPicker
        width={300}
        height={400}
        searchDisabled={false}
        skinTonesDisabled
        previewConfig={{ showPreview: false }}
        onEmojiClick={(data) => onPick(data.emoji)}
        lazyLoadEmojis
      />
    </div>
  );
}
