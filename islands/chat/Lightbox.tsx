// The image lightbox: "N of M", previous/next, thumbnails; Escape or a backdrop click closes,
// arrow keys navigate, focus stays inside while it is open.
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef } from "react";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import useFocusTrap from "./useFocusTrap.ts";

export default function Lightbox() {
  useSignals();
  const { store } = useChat();
  const ref = useRef<HTMLDivElement>(null);
  const state = store.lightbox.value;
  const close = useCallback(() => {
    store.lightbox.value = null;
  }, [store]);
  useFocusTrap(ref, state !== null, close);

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
  return (
    <div
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={`Image ${state.index + 1} of ${count}`}
      ref={ref}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="lightbox-top">
        <span className="lightbox-counter">
          {state.index + 1} of {count}
        </span>
        <span className="lightbox-name">{image.name}</span>
        <button type="button" className="lightbox-button" aria-label="Close" onClick={close}>
          <Icon name="close" />
        </button>
      </div>
      <div className="lightbox-stage" onClick={(e) => e.target === e.currentTarget && close()}>
        <button type="button" className="lightbox-button lightbox-prev" aria-label="Previous image" onClick={() => go(-1)} disabled={count < 2}>
          <Icon name="chevronLeft" size={28} />
        </button>
        <img className="lightbox-image" src={image.url} alt={image.name} />
        <button type="button" className="lightbox-button lightbox-next" aria-label="Next image" onClick={() => go(1)} disabled={count < 2}>
          <Icon name="chevronRight" size={28} />
        </button>
      </div>
      {count > 1 && (
        <div className="lightbox-thumbs" role="group" aria-label="Thumbnails">
          {state.images.map((img, i) => (
            <button
              key={img.message.id}
              type="button"
              className={`lightbox-thumb${i === state.index ? " is-active" : ""}`}
              aria-label={`Show image ${i + 1}`}
              aria-current={i === state.index ? "true" : undefined}
              onClick={() => (store.lightbox.value = { ...state, index: i })}
            >
              <img src={img.url} alt="" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
