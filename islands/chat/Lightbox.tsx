// The image lightbox: "N of M", previous/next, thumbnails; Escape or a backdrop click closes,
// arrow keys navigate, focus stays inside while it is open. A picture the nudity classifier has
// not cleared (issue 12) shows blurred under "Tap to view", here as in the grid; it is checked
// when it loads, so the pictures behind a grid's "+N" are checked when they are first looked at.
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { reveal } from "../lib/safety.ts";
import { checkPicture, pictureVerdict, subscribePictureVerdicts } from "../nudity/picture-checks.ts";
import { coverReason, isCovered, needsCheck } from "../nudity/picture-cover.ts";
import BlurCover from "../safety/BlurCover.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import useFocusTrap from "./useFocusTrap.ts";
import { t } from "../i18n.ts";

export default function Lightbox() {
  useSignals();
  const { store } = useChat();
  const ref = useRef<HTMLDivElement>(null);
  const state = store.lightbox.value;
  const close = useCallback(() => {
    store.lightbox.value = null;
  }, [store]);
  useFocusTrap(ref, state !== null, close);
  // A string, so React compares the verdicts by value.
  useSyncExternalStore(subscribePictureVerdicts, () => state?.images.map((img) => pictureVerdict(img.url) ?? "").join() ?? "");

  const count = state?.images.length ?? 0;
  const go = useCallback(
    (step: number) => {
      const current = store.lightbox.value;
      if (!current || current.images.length === 0) return;
      const index = (current.index + step + current.images.length) % current.images.length;
      store.lightbox.value = { ...current, index };
    },
    [store],
  );

  useEffect(() => {
    if (!state) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "ArrowLeft") go(-1);
      if (event.key === "ArrowRight") go(1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state, go]);

  if (!state) return null;
  const image = state.images[state.index];
  if (!image) return null;
  const reason = coverReason(store, [image.message]);
  const check = (img: (typeof state.images)[number], element: HTMLImageElement) => needsCheck(store, img.message) && checkPicture(img.url, element);
  return (
    <div
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={t("chat.image_of", { index: state.index + 1, count })}
      ref={ref}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="lightbox-top">
        <span className="lightbox-counter">
          {t("chat.image_counter", { index: state.index + 1, count })}
        </span>
        <span className="lightbox-name">{image.name}</span>
        <button type="button" className="lightbox-button" aria-label={t("chat.close")} onClick={close}>
          <Icon name="close" />
        </button>
      </div>
      <div className="lightbox-stage" onClick={(e) => e.target === e.currentTarget && close()}>
        <button type="button" className="lightbox-button lightbox-prev" aria-label={t("chat.image_previous")} onClick={() => go(-1)} disabled={count < 2}>
          <Icon name="chevronLeft" size={28} />
        </button>
        <div className="lightbox-picture">
          <img className={`lightbox-image${reason ? " is-covered" : ""}`} src={image.url} alt={image.name} onLoad={(e) => check(image, e.currentTarget)} />
          {reason && <BlurCover sender={image.message.sender_name} count={1} reason={reason} onReveal={() => reveal(store, [image.message])} />}
        </div>
        <button type="button" className="lightbox-button lightbox-next" aria-label={t("chat.image_next")} onClick={() => go(1)} disabled={count < 2}>
          <Icon name="chevronRight" size={28} />
        </button>
      </div>
      {count > 1 && (
        <div className="lightbox-thumbs" role="group" aria-label={t("chat.thumbnails")}>
          {state.images.map((img, i) => (
            <button
              key={img.message.id}
              type="button"
              className={`lightbox-thumb${i === state.index ? " is-active" : ""}${isCovered(store, img.message) ? " is-covered" : ""}`}
              aria-label={t("chat.image_show", { index: i + 1 })}
              aria-current={i === state.index ? "true" : undefined}
              onClick={() => (store.lightbox.value = { ...state, index: i })}
            >
              <img src={img.url} alt="" onLoad={(e) => check(img, e.currentTarget)} />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
