// Whether the stranger's video is blurred, as a pure reducer (issue 12). A new partner starts
// blurred ("checking") until SAFE_FRAMES_TO_UNBLUR safe frames in a row; an explicit frame blurs
// again at once ("flagged"); "Show anyway" holds until the next partner, whatever the frames say;
// with the setting off nothing is blurred.
import { t } from "../i18n.ts";
import { SAFE_FRAMES_TO_UNBLUR, type Verdict } from "./thresholds.ts";

export type BlurMode = "checking" | "clear" | "flagged" | "shown" | "off";

export interface BlurState {
  mode: BlurMode;
  /** Safe frames in a row since the last unsure or explicit one. */
  safeRun: number;
}

export type BlurAction =
  | { type: "partner" }
  | { type: "frame"; verdict: Verdict }
  | { type: "show_anyway" }
  | { type: "setting"; enabled: boolean };

export const initialBlurState = (enabled = true): BlurState => ({ mode: enabled ? "checking" : "off", safeRun: 0 });

export function blurReducer(state: BlurState, action: BlurAction): BlurState {
  switch (action.type) {
    case "partner":
      return initialBlurState(state.mode !== "off");
    case "setting":
      if (!action.enabled) return { mode: "off", safeRun: 0 };
      return state.mode === "off" ? initialBlurState(true) : state;
    case "show_anyway":
      return state.mode === "off" ? state : { mode: "shown", safeRun: 0 };
    case "frame": {
      if (state.mode === "off" || state.mode === "shown") return state;
      if (action.verdict === "explicit") return { mode: "flagged", safeRun: 0 };
      if (action.verdict === "unsure") return { mode: state.mode, safeRun: 0 };
      const safeRun = state.safeRun + 1;
      if (state.mode === "clear") return { mode: "clear", safeRun };
      return { mode: safeRun >= SAFE_FRAMES_TO_UNBLUR ? "clear" : state.mode, safeRun };
    }
  }
}

export const isBlurred = (state: BlurState): boolean => state.mode === "checking" || state.mode === "flagged";

/** The line on the blurred video. */
export function blurLabel(state: BlurState, loading: boolean, unavailable = false): string {
  if (state.mode === "flagged") return t("safety.video_flagged");
  if (unavailable) return t("safety.video_unchecked");
  return loading ? t("safety.video_checking_loading") : t("safety.video_checking");
}
