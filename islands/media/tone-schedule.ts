// The four call tones as data (spec section 9 "Tones"), so their frequencies, lengths and
// repeats are checked by tests without an audio device. tones.ts plays them with Web Audio.

export interface Beep {
  /** Hz */
  frequency: number;
  /** From the start of one round of the tone. */
  startMs: number;
  durationMs: number;
}

export interface ToneSchedule {
  beeps: readonly Beep[];
  /** A ringing tone starts a new round this often until stopped; null plays once. */
  repeatEveryMs: number | null;
}

export type ToneName = "ringtone" | "outgoing" | "connected" | "ended";

/** Silence between the two beeps of a pair, so they are heard as two. */
export const BEEP_GAP_MS = 100;

function pair(first: number, second: number, durationMs: number): Beep[] {
  return [
    { frequency: first, startMs: 0, durationMs },
    { frequency: second, startMs: durationMs + BEEP_GAP_MS, durationMs },
  ];
}

export const TONES: Readonly<Record<ToneName, ToneSchedule>> = {
  // Incoming call: 800 Hz then 600 Hz, 400 ms each, every 2 s.
  ringtone: { beeps: pair(800, 600, 400), repeatEveryMs: 2000 },
  // Waiting for the other side: 440 Hz for 1 s, every 2 s.
  outgoing: { beeps: [{ frequency: 440, startMs: 0, durationMs: 1000 }], repeatEveryMs: 2000 },
  // Rising pair when the remote video arrives.
  connected: { beeps: pair(800, 1000, 200), repeatEveryMs: null },
  // Falling pair on hang-up.
  ended: { beeps: pair(400, 300, 300), repeatEveryMs: null },
};

/** How long one round lasts, from the first beep's start to the last one's end. */
export function roundLengthMs(schedule: ToneSchedule): number {
  return Math.max(0, ...schedule.beeps.map((b) => b.startMs + b.durationMs));
}

/** Every beep in the first `windowMs` of a tone, in order: what a listener hears. */
export function beepsWithin(schedule: ToneSchedule, windowMs: number): Beep[] {
  const rounds = schedule.repeatEveryMs === null ? 1 : Math.ceil(windowMs / schedule.repeatEveryMs);
  const out: Beep[] = [];
  for (let round = 0; round < rounds; round++) {
    const offset = round * (schedule.repeatEveryMs ?? 0);
    for (const beep of schedule.beeps) {
      if (offset + beep.startMs < windowMs) out.push({ ...beep, startMs: offset + beep.startMs });
    }
  }
  return out;
}
