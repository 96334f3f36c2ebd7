// A voice message played inline: play/pause, a progress bar and the time. The length shown is the
// server's duration_ms: a recording streamed by MediaRecorder carries none the browser can read
// (its audio element reports Infinity until the end).
import { useEffect, useRef, useState } from "react";
import { fileUrl } from "../lib/files.ts";
import type { Message } from "../lib/types.ts";
import { clock } from "../lib/voice-recorder.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

export default function VoicePlayer({ message }: { message: Message }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [at, setAt] = useState(0);
  const total = message.duration_ms ?? 0;

  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const onTime = () => setAt(el.currentTime * 1000);
    const onEnd = () => {
      setPlaying(false);
      setAt(0);
    };
    const onPause = () => setPlaying(false);
    const onPlay = () => setPlaying(true);
    el.addEventListener("timeupdate", onTime);
    el.addEventListener("ended", onEnd);
    el.addEventListener("pause", onPause);
    el.addEventListener("play", onPlay);
    return () => {
      el.removeEventListener("timeupdate", onTime);
      el.removeEventListener("ended", onEnd);
      el.removeEventListener("pause", onPause);
      el.removeEventListener("play", onPlay);
    };
  }, []);

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch((error: unknown) => console.error("The voice message could not be played", error));
    else el.pause();
  };

  const shown = Math.min(at, total);
  const percent = total > 0 ? Math.round((shown / total) * 100) : 0;
  return (
    <div className="voice-player">
      <audio ref={audio} src={fileUrl(message)} preload="metadata" />
      <button type="button" className="voice-play" onClick={toggle} aria-label={t(playing ? "chat.voice_pause" : "chat.voice_play", { length: clock(total) })}>
        <Icon name={playing ? "pause" : "play"} />
      </button>
      <div className="voice-track" role="progressbar" aria-label={t("chat.voice_played")} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={t("chat.voice_progress", { at: clock(shown), length: clock(total) })}>
        <span className="voice-track-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="voice-time">{playing || shown > 0 ? `${clock(shown)} / ${clock(total)}` : clock(total)}</span>
    </div>
  );
}
