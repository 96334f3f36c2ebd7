import { afterEach, describe, expect, jest, test } from "bun:test";
import { beepsWithin, roundLengthMs, TONES } from "../../islands/media/tone-schedule.ts";
import { TonePlayer, type AudioContextLike } from "../../islands/media/tones.ts";

const heard = (name: keyof typeof TONES, windowMs: number) =>
  beepsWithin(TONES[name], windowMs).map((b) => [b.frequency, b.startMs, b.durationMs]);

describe("tone schedules (spec section 9)", () => {
  test("ringtone: 800 Hz then 600 Hz, 400 ms each, repeated every 2 s", () => {
    expect(heard("ringtone", 4000)).toEqual([
      [800, 0, 400],
      [600, 500, 400],
      [800, 2000, 400],
      [600, 2500, 400],
    ]);
  });

  test("outgoing: 440 Hz for 1000 ms every 2 s", () => {
    expect(heard("outgoing", 6000)).toEqual([
      [440, 0, 1000],
      [440, 2000, 1000],
      [440, 4000, 1000],
    ]);
  });

  test("connected: 800 then 1000 Hz, 200 ms, once", () => {
    expect(heard("connected", 10_000)).toEqual([
      [800, 0, 200],
      [1000, 300, 200],
    ]);
    expect(TONES.connected.repeatEveryMs).toBeNull();
  });

  test("ended: 400 then 300 Hz, 300 ms, once", () => {
    expect(heard("ended", 10_000)).toEqual([
      [400, 0, 300],
      [300, 400, 300],
    ]);
    expect(roundLengthMs(TONES.ended)).toBe(700);
  });

  test("every round of a repeating tone ends before the next begins", () => {
    for (const tone of Object.values(TONES)) {
      if (tone.repeatEveryMs !== null) expect(roundLengthMs(tone)).toBeLessThan(tone.repeatEveryMs);
    }
  });
});

/** An AudioContext that records every oscillator it makes. */
function fakeAudio() {
  const oscillators: { frequency: number; start: number; stop: number; stopped: boolean }[] = [];
  let closed = false;
  const param = () => ({ setValueAtTime: () => undefined, linearRampToValueAtTime: () => undefined });
  const ctx = {
    currentTime: 10,
    destination: {},
    state: "running",
    createOscillator() {
      const record = { frequency: 0, start: 0, stop: 0, stopped: false };
      oscillators.push(record);
      return {
        type: "sine",
        frequency: { setValueAtTime: (v: number) => void (record.frequency = v) },
        connect: () => undefined,
        onended: null,
        start: (t: number) => void (record.start = t),
        stop: (t?: number) => {
          if (t === undefined) record.stopped = true;
          else record.stop = t;
        },
      };
    },
    createGain: () => ({ gain: param(), connect: () => undefined, disconnect: () => undefined }),
    resume: async () => undefined,
    close: async () => {
      closed = true;
    },
  };
  // The player touches only these members of an AudioContext.
  return { ctx: ctx as unknown as AudioContextLike, oscillators, closed: () => closed };
}

afterEach(() => jest.useRealTimers());

describe("TonePlayer", () => {
  test("schedules each beep as an oscillator on the audio clock", () => {
    const audio = fakeAudio();
    new TonePlayer(() => audio.ctx).play("ended");
    expect(audio.oscillators.map((o) => [o.frequency, +(o.start - 10).toFixed(3), +(o.stop - o.start).toFixed(3)])).toEqual([
      [400, 0, 0.3],
      [300, 0.4, 0.3],
    ]);
  });

  test("repeats the ringtone every 2 s until stopped", () => {
    jest.useFakeTimers();
    const audio = fakeAudio();
    const player = new TonePlayer(() => audio.ctx);
    player.play("ringtone");
    jest.advanceTimersByTime(4000);
    expect(audio.oscillators.map((o) => o.frequency)).toEqual([800, 600, 800, 600, 800, 600]);
    player.stop();
    jest.advanceTimersByTime(4000);
    expect(audio.oscillators).toHaveLength(6);
    expect(player.current).toBeNull();
  });

  test("a new tone silences the one sounding", () => {
    const audio = fakeAudio();
    const player = new TonePlayer(() => audio.ctx);
    player.play("outgoing");
    player.play("connected");
    expect(audio.oscillators[0]?.stopped).toBe(true);
    expect(player.current).toBe("connected");
  });

  test("playThenClose lets the ended tone finish before releasing the audio device", () => {
    jest.useFakeTimers();
    const audio = fakeAudio();
    const player = new TonePlayer(() => audio.ctx);
    player.playThenClose("ended");
    jest.advanceTimersByTime(700);
    expect(audio.closed()).toBe(false);
    jest.advanceTimersByTime(200);
    expect(audio.closed()).toBe(true);
    player.play("ringtone");
    expect(audio.oscillators).toHaveLength(2);
  });

  test("stays silent without Web Audio", () => {
    expect(() => new TonePlayer(() => null).play("ringtone")).not.toThrow();
  });
});
