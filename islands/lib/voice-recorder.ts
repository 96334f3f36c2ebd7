// Recording a voice message with MediaRecorder: Opus in WebM where the browser writes it
// (Chromium, Firefox), else Opus in Ogg, else whatever the browser records (the server refuses
// anything but Opus and says so). Stops by itself at MAX_VOICE_MS. Browser-only: call from effects
// or handlers, never while rendering.
import { MAX_VOICE_MS } from "../../src/realtime/message-rules.ts";

export { MAX_VOICE_MS };

const TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm"];

/** A little under the limit: the container may hold a frame or two more than the timer saw. */
const STOP_AT_MS = MAX_VOICE_MS - 500;

export interface Recording {
  blob: Blob;
  durationMs: number;
}

export class VoiceRecorder {
  private recorder: MediaRecorder | null = null;
  private stream: MediaStream | null = null;
  private chunks: Blob[] = [];
  private startedAt = 0;
  private limit: ReturnType<typeof setTimeout> | null = null;
  private finished: ((recording: Recording | null) => void) | null = null;

  static supported(): boolean {
    return typeof MediaRecorder !== "undefined" && typeof navigator !== "undefined" && !!navigator.mediaDevices?.getUserMedia;
  }

  /** Asks for the microphone and starts; `onLimit` runs when five minutes are up (the caller then sends). */
  async start(onLimit: () => void): Promise<void> {
    this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const mimeType = TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(this.stream, mimeType ? { mimeType, audioBitsPerSecond: 32_000 } : undefined);
    this.recorder = recorder;
    this.chunks = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    recorder.onstop = () => {
      const durationMs = performance.now() - this.startedAt;
      const blob = new Blob(this.chunks, { type: recorder.mimeType || mimeType || "audio/webm" });
      this.release();
      this.finished?.({ blob, durationMs });
      this.finished = null;
    };
    recorder.start(1000);
    this.startedAt = performance.now();
    this.limit = setTimeout(onLimit, STOP_AT_MS);
  }

  /** Milliseconds recorded so far. */
  elapsed(): number {
    return this.recorder ? performance.now() - this.startedAt : 0;
  }

  /** Stops and answers the recording (null when nothing was recording). */
  stop(): Promise<Recording | null> {
    const recorder = this.recorder;
    if (!recorder || recorder.state === "inactive") return Promise.resolve(null);
    return new Promise((resolve) => {
      this.finished = resolve;
      recorder.stop();
    });
  }

  /** Stops and throws the recording away. */
  cancel(): void {
    this.finished = null;
    const recorder = this.recorder;
    if (recorder && recorder.state !== "inactive") {
      recorder.onstop = () => this.release();
      recorder.stop();
    } else this.release();
  }

  private release(): void {
    if (this.limit) clearTimeout(this.limit);
    this.limit = null;
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.recorder = null;
    this.chunks = [];
  }
}

/** "0:07", "4:59". */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
