// How often the stranger's video is sampled (issue 21): as often as the classifier's cost allows.
//   - While "checking" (a new stranger, still blurred), frames go back to back: the person is
//     waiting for a picture, and the worker's thread is not the page's.
//   - Otherwise (clear, flagged), one frame every max(MIN_PERIOD_MS, 2 x cost): at most 5 frames a
//     second, and the worker busy at most half the time, so a slow backend does not take a whole
//     core of a cheap phone for ever. A frame that costs under 150 ms is checked at least 3 times a
//     second; an explicit frame then waits at most one period plus one frame before it blurs.
import type { BlurMode } from "./blur-machine.ts";

export const MIN_PERIOD_MS = 200;
/** Until the video has a frame to read (or while nothing is to be checked), look again this soon. */
export const WAIT_FOR_FRAME_MS = 40;

/** The gap before the next frame, given the last frame's round trip. */
export function nextSampleDelay(costMs: number, mode: BlurMode): number {
  if (mode === "checking") return 0;
  return Math.round(Math.max(MIN_PERIOD_MS - costMs, costMs));
}
