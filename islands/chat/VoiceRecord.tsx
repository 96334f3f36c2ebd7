// Recording a voice message: press and hold the microphone to record and let go to send, or tap
// it to record hands-free and then Send or Cancel. A timer shows the length; at five minutes it
// sends by itself. Keyboard: Enter or Space on the microphone starts (tap mode).
import { useEffect, useRef, useState, type PointerEvent } from "react";
import { sendVoice } from "../lib/message-actions.ts";
import { clock, MAX_VOICE_MS, VoiceRecorder } from "../lib/voice-recorder.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

/** A press longer than this is a hold: letting go sends. */
const HOLD_MS = 400;

type State = { kind: "idle" } | { kind: "starting" } | { kind: "recording"; hold: boolean } | { kind: "sending" };

export default function VoiceRecord({ onActive }: { onActive(active: boolean): void }) {
  const controller = useChat();
  const recorder = useRef<VoiceRecorder | null>(null);
  const pressedAt = useRef(0);
  const [state, setState] = useState<State>({ kind: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const active = state.kind !== "idle";

  useEffect(() => onActive(active), [active, onActive]);
  useEffect(() => () => recorder.current?.cancel(), []);
  useEffect(() => {
    if (state.kind !== "recording") return;
    const timer = setInterval(() => setElapsed(recorder.current?.elapsed() ?? 0), 250);
    return () => clearInterval(timer);
  }, [state.kind]);

  const finish = async () => {
    const current = recorder.current;
    if (!current) return;
    setState({ kind: "sending" });
    const recording = await current.stop();
    recorder.current = null;
    if (recording && recording.blob.size > 0) await sendVoice(controller, recording.blob, Math.min(recording.durationMs, MAX_VOICE_MS));
    setState({ kind: "idle" });
    setElapsed(0);
  };

  const cancel = () => {
    recorder.current?.cancel();
    recorder.current = null;
    setState({ kind: "idle" });
    setElapsed(0);
  };

  const start = async (hold: boolean) => {
    if (recorder.current) return;
    const next = new VoiceRecorder();
    recorder.current = next;
    setState({ kind: "starting" });
    try {
      await next.start(() => void finish());
      setState({ kind: "recording", hold });
    } catch (error) {
      recorder.current = null;
      setState({ kind: "idle" });
      controller.notify.error(t("chat.voice_mic_failed"));
      console.error("Recording failed to start", error);
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || recorder.current) return;
    pressedAt.current = performance.now();
    void start(true);
  };
  const onPointerUp = () => {
    if (!pressedAt.current) return;
    const held = performance.now() - pressedAt.current;
    pressedAt.current = 0;
    // A short press is a tap: the recording goes on until Send or Cancel.
    if (held < HOLD_MS) setState((s) => (s.kind === "recording" ? { kind: "recording", hold: false } : s));
    else void finish();
  };

  if (!VoiceRecorder.supported()) return null;
  if (!active) {
    return (
      <button
        type="button"
        className="icon-button voice-button"
        aria-label={t("chat.voice_record")}
        title={t("chat.voice_record_hint")}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onKeyDown={(event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            void start(false);
          }
        }}
      >
        <Icon name="mic" />
      </button>
    );
  }
  return (
    <div className="voice-recording" role="group" aria-label={t("chat.voice_recording")} onPointerUp={onPointerUp}>
      <span className="voice-dot" aria-hidden="true" />
      <span className="voice-timer" role="timer" aria-live="off">
        {state.kind === "sending" ? t("chat.voice_sending") : clock(elapsed)}
      </span>
      <span className="voice-limit">/ {clock(MAX_VOICE_MS)}</span>
      <button type="button" className="voice-cancel" onClick={cancel} disabled={state.kind === "sending"}>
        {t("chat.cancel")}
      </button>
      <button type="button" className="send-button" aria-label={t("chat.voice_send")} onClick={() => void finish()} disabled={state.kind !== "recording"}>
        <Icon name="send" />
      </button>
    </div>
  );
}
