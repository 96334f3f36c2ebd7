// The people list watches the presence of the people it shows (lib/presence.ts PresenceWatch):
// again when the list or the scroll position changes, and on every new socket.
import { useEffect, useMemo, useRef, type RefObject } from "react";
import { PresenceWatch, visibleFirst } from "../lib/presence.ts";
import { useChat } from "./context.ts";

/** Index of the first row of the list that is (even partly) inside the scroller; 0 when none is. */
function firstVisibleRow(scroller: HTMLElement | null): number {
  if (!scroller) return 0;
  const top = scroller.getBoundingClientRect().top;
  const rows = scroller.querySelectorAll(".list > li");
  for (let i = 0; i < rows.length; i++) if (rows[i]!.getBoundingClientRect().bottom > top) return i;
  return 0;
}

export function usePresenceWatch(ids: readonly number[], scroller: RefObject<HTMLElement | null>): void {
  const controller = useChat();
  const shown = useRef(ids);
  shown.current = ids;
  const watch = useMemo(
    () => new PresenceWatch(() => controller.socket, () => visibleFirst(shown.current, firstVisibleRow(scroller.current))),
    [controller, scroller],
  );
  useEffect(() => () => watch.stop(), [watch]);

  const key = ids.join(",");
  useEffect(() => watch.changed(), [watch, key]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => watch.changed();
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [watch, scroller]);

  const connected = controller.store.connection.value === "connected";
  useEffect(() => {
    if (connected) watch.connected();
  }, [watch, connected]);
}
