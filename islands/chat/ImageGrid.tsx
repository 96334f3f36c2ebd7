// Images of one message in a grid of at most 9 tiles; the ninth shows "+N" when there are more.
// A tile whose image fails to load becomes a file card. Pictures from a stranger (someone I have
// never written to) are blurred under a cover until tapped, and never open the lightbox blurred.
// With "Blur nudity" on, everyone else's pictures stay blurred too until the classifier has
// cleared them (issue 12): each is checked when its lazy <img> has loaded, that is when it is
// about to be seen, and an explicit one keeps its cover until tapped.
import { useSignals } from "@preact/signals-react/runtime";
import { useState, useSyncExternalStore } from "react";
import { fileUrl, gridLayout, gridTiles, lightboxImages } from "../lib/files.ts";
import { isBlurred, reveal } from "../lib/safety.ts";
import type { Message } from "../lib/types.ts";
import { checkPicture, pictureVerdict, subscribePictureVerdicts } from "../nudity/picture-checks.ts";
import { coverReason, needsCheck } from "../nudity/picture-cover.ts";
import BlurCover from "../safety/BlurCover.tsx";
import { useChat } from "./context.ts";
import FileCard from "./FileCard.tsx";
import { t } from "../i18n.ts";

export default function ImageGrid({ images }: { images: Message[] }) {
  useSignals();
  const { store } = useChat();
  const [broken, setBroken] = useState<Set<number>>(() => new Set());
  const tiles = gridTiles(images);
  const layout = gridLayout(images.length);

  // A string, so React compares these pictures' verdicts by value.
  useSyncExternalStore(subscribePictureVerdicts, () => images.map((m) => pictureVerdict(fileUrl(m)) ?? "").join());

  const open = (message: Message) => {
    // A stranger's covered pictures stay out; those waiting for the classifier come covered.
    const all = lightboxImages(store.messages.value).filter((img) => !isBlurred(store, img.message));
    const index = all.findIndex((img) => img.message.id === message.id);
    store.lightbox.value = { images: all, index: Math.max(0, index) };
  };

  const reason = coverReason(store, images);
  const blurred = reason !== null;
  return (
    <div className={`image-grid grid-${layout}${blurred ? " is-blurred" : ""}`} data-count={images.length}>
      {tiles.map(({ item, index, more }) =>
        broken.has(item.id) ? (
          <FileCard key={item.id} name={item.file_name ?? t("chat.unnamed_image")} size={item.file_size} href={fileUrl(item)} />
        ) : (
          <button
            key={item.id}
            type="button"
            className={`image-tile tile-${index}`}
            aria-label={more ? t("chat.open_image_more", { name: item.file_name ?? "", count: more }) : t("chat.open_image", { name: item.file_name ?? "" })}
            tabIndex={blurred ? -1 : undefined}
            aria-hidden={blurred || undefined}
            onClick={() => !blurred && open(item)}
          >
            <img
              src={fileUrl(item)}
              alt={item.file_name ?? t("chat.unnamed_image")}
              loading="lazy"
              onLoad={(event) => needsCheck(store, item) && checkPicture(fileUrl(item), event.currentTarget)}
              onError={() => setBroken((prev) => new Set(prev).add(item.id))}
            />
            {more > 0 && <span className="more-overlay">+{more}</span>}
          </button>
        ),
      )}
      {blurred && <BlurCover sender={images[0]?.sender_name ?? ""} count={images.length} reason={reason} onReveal={() => reveal(store, images)} />}
    </div>
  );
}
