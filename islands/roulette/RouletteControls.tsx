// The roulette's buttons for each status: Start Video Chat; Stop; Keep in touch, Next Partner and
// Stop. "Keep in touch" stays pressed on my side only: the stranger learns of it only if they
// press it too.
import { t } from "../i18n.ts";
import CallIcon from "../calls/CallIcon.tsx";
import { buttonsFor, type RouletteStatus } from "./roulette-state.ts";

interface Props {
  status: RouletteStatus;
  starting: boolean;
  /** False until the realtime client exists. */
  ready: boolean;
  onStart: () => void;
  onNext: () => void;
  onStop: () => void;
  /** I pressed Keep in touch in this pairing. */
  keepInTouch?: boolean;
  onKeepInTouch?: () => void;
}

export default function RouletteControls({ status, starting, ready, onStart, onNext, onStop, keepInTouch = false, onKeepInTouch }: Props) {
  return (
    <div className="roulette-buttons">
      {status === "connected" && onKeepInTouch && (
        <button
          type="button"
          className={`roulette-button is-keep${keepInTouch ? " is-pressed" : ""}`}
          onClick={onKeepInTouch}
          aria-pressed={keepInTouch}
          disabled={keepInTouch}
        >
          <CallIcon name="heart" size={18} />
          {` ${keepInTouch ? t("roulette.keep_waiting") : t("roulette.keep_in_touch")}`}
        </button>
      )}
      {buttonsFor(status).map((kind) => {
        if (kind === "start") {
          return (
            <button key={kind} type="button" className="roulette-button is-start" onClick={onStart} disabled={starting || !ready}>
              <CallIcon name="video" size={20} />
              {` ${t("roulette.start")}`}
            </button>
          );
        }
        if (kind === "next") {
          return (
            <button key={kind} type="button" className="roulette-button is-next" onClick={onNext}>
              <CallIcon name="next" size={18} />
              {` ${t("roulette.next")}`}
            </button>
          );
        }
        return (
          <button key={kind} type="button" className="roulette-button is-stop" onClick={onStop}>
            <CallIcon name="stop" size={16} />
            {` ${t("roulette.stop")}`}
          </button>
        );
      })}
    </div>
  );
}
