// The stranger's video behind a blur until the classifier has seen it (issue 12). The guard and
// its classifier are made when roulette first starts, not when the tab opens, so a visitor who
// never presses Start never downloads the model. Each new remote stream is a new stranger.
import { useEffect, useState, useSyncExternalStore, type RefObject } from "react";
import { getClassifier } from "../nudity/classifier.ts";
import { VideoGuard, type GuardSnapshot } from "../nudity/video-guard.ts";
import type { NsfwScores } from "../nudity/thresholds.ts";

const NONE: GuardSnapshot = { blur: { mode: "checking", safeRun: 0 }, loading: true, unavailable: false, flaggedStill: null, backend: null };
const noSubscription = () => () => {};
const none = () => NONE;

/** Each frame's model time as a User Timing entry: what the browser suite measures. */
function markFrame(scores: NsfwScores, ms: number): void {
  const end = performance.now();
  performance.measure("nudity-classify", { start: end - ms, end, detail: scores });
}

export function useNudityGuard(started: boolean, enabled: boolean, video: RefObject<HTMLVideoElement | null>, stream: MediaStream | null) {
  const [guard, setGuard] = useState<VideoGuard | null>(null);

  useEffect(() => {
    if (!started || guard) return;
    setGuard(new VideoGuard({ load: getClassifier, enabled, onFrame: markFrame }));
  }, [started, guard, enabled]);

  useEffect(() => () => guard?.dispose(), [guard]);
  useEffect(() => guard?.setEnabled(enabled), [guard, enabled]);
  useEffect(() => guard?.watch(stream ? video.current : null), [guard, stream, video]);

  const snapshot = useSyncExternalStore(guard?.subscribe ?? noSubscription, guard?.getSnapshot ?? none);
  return { snapshot, showAnyway: () => guard?.showAnyway() };
}
