// Plays the call tones with Web Audio: one OscillatorNode and GainNode per beep, scheduled on
// the audio clock so the beeps keep their lengths even when the page is busy. Only one tone
// sounds at a time; a ringing tone repeats until stop().
import { roundLengthMs, TONES, type ToneName, type ToneSchedule } from "./tone-schedule.ts";

/** Loud enough to hear over a fan, quiet enough not to startle. */
const VOLUME = 0.18;
/** Short fades: a beep that starts or stops at full volume clicks. */
const FADE_S = 0.01;

/** The part of AudioContext the player uses, so tests can count what it schedules. */
export type AudioContextLike = Pick<AudioContext, "currentTime" | "destination" | "state" | "createOscillator" | "createGain" | "resume" | "close">;

export class TonePlayer {
  private ctx: AudioContextLike | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private sounding = new Set<OscillatorNode>();
  private closed = false;
  current: ToneName | null = null;

  constructor(private readonly createContext: () => AudioContextLike | null = defaultContext) {}

  /** Starts a tone, replacing the one that is sounding. */
  play(name: ToneName): void {
    this.stop();
    const ctx = this.context();
    if (!ctx) return;
    const schedule = TONES[name];
    this.current = name;
    this.round(ctx, schedule);
    if (schedule.repeatEveryMs !== null) {
      this.timer = setInterval(() => this.round(ctx, schedule), schedule.repeatEveryMs);
    }
  }

  /** Silences the current tone at once. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.current = null;
    for (const osc of this.sounding) {
      try {
        osc.stop();
      } catch {
        // Already stopped: nothing to silence.
      }
    }
    this.sounding.clear();
  }

  /** Plays a one-off tone to its end, then releases the audio device. */
  playThenClose(name: ToneName): void {
    this.play(name);
    setTimeout(() => this.close(), roundLengthMs(TONES[name]) + 100);
  }

  close(): void {
    this.stop();
    this.closed = true;
    const ctx = this.ctx;
    this.ctx = null;
    if (ctx && ctx.state !== "closed") void ctx.close().catch(() => undefined);
  }

  private context(): AudioContextLike | null {
    if (this.closed) return null;
    this.ctx ??= this.createContext();
    // Autoplay rules may start the context suspended; a click anywhere on the page lifts that.
    if (this.ctx?.state === "suspended") void this.ctx.resume().catch(() => undefined);
    return this.ctx;
  }

  private round(ctx: AudioContextLike, schedule: ToneSchedule): void {
    const t0 = ctx.currentTime;
    for (const beep of schedule.beeps) {
      const start = t0 + beep.startMs / 1000;
      const end = start + beep.durationMs / 1000;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(beep.frequency, start);
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(VOLUME, start + FADE_S);
      gain.gain.setValueAtTime(VOLUME, end - FADE_S);
      gain.gain.linearRampToValueAtTime(0, end);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.onended = () => {
        this.sounding.delete(osc);
        gain.disconnect();
      };
      this.sounding.add(osc);
      osc.start(start);
      osc.stop(end);
    }
  }
}

function defaultContext(): AudioContextLike | null {
  const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    return new Ctor();
  } catch {
    // No audio device (a server, a locked-down kiosk): calls work, silently.
    return null;
  }
}
