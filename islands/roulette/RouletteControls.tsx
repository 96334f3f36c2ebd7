// The roulette's buttons for each status: Start Video Chat; Stop; Next Partner and Stop.
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
}

export default function RouletteControls({ status, starting, ready, onStart, onNext, onStop }: Props) {
  return (
    <div className="roulette-buttons">
      {buttonsFor(status).map((kind) => {
        if (kind === "start") {
          return (
            <button key={kind} type="button" className="roulette-button is-start" onClick={onStart} disabled={starting || !ready}>
              <CallIcon name="video" size={20} /> Start Video Chat
            </button>
          );
        }
        if (kind === "next") {
          return (
            <button key={kind} type="button" className="roulette-button is-next" onClick={onNext}>
              <CallIcon name="next" size={18} /> Next Partner
            </button>
          );
        }
        return (
          <button key={kind} type="button" className="roulette-button is-stop" onClick={onStop}>
            <CallIcon name="stop" size={16} /> Stop
          </button>
        );
      })}
    </div>
  );
}
