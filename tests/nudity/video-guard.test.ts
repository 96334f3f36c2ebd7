// The guard around the blur machine, with a stand-in classifier: no model, no explicit images.
// The stand-in answers whatever scores the test sets, which is how the unsafe path is proven.
import { describe, expect, test } from "bun:test";
import type { FrameClassifier, FrameSource } from "../../islands/nudity/classifier.ts";
import type { NsfwScores } from "../../islands/nudity/thresholds.ts";
import { VideoGuard } from "../../islands/nudity/video-guard.ts";
import { afterTimers, until } from "../support/until.ts";

const SAFE: NsfwScores = { Drawing: 0.1, Hentai: 0.01, Neutral: 0.87, Porn: 0.01, Sexy: 0.01 };
const EXPLICIT: NsfwScores = { Drawing: 0, Hentai: 0.05, Neutral: 0.03, Porn: 0.9, Sexy: 0.02 };

function standIn() {
  let next = SAFE;
  let frames = 0;
  const classifier: FrameClassifier = {
    async classify() {
      frames++;
      return { scores: next, ms: 5 };
    },
  };
  return { classifier, answer: (scores: NsfwScores) => (next = scores), frames: () => frames };
}

const video = {} as FrameSource;

describe("VideoGuard", () => {
  test("stays blurred while the classifier loads, then unblurs on safe frames", async () => {
    const fake = standIn();
    let release!: (c: FrameClassifier) => void;
    const guard = new VideoGuard({ load: () => new Promise((resolve) => (release = resolve)), enabled: true, everyMs: 5 });
    guard.watch(video);
    expect(guard.getSnapshot()).toEqual({ blur: { mode: "checking", safeRun: 0 }, loading: true, unavailable: false, flaggedStill: null, backend: null });
    release(fake.classifier);
    await until(() => guard.getSnapshot().blur.mode === "clear", "the blur turning clear");
    expect(guard.getSnapshot().loading).toBe(false);
    guard.dispose();
  });

  test("an explicit frame reblurs at once; 'Show anyway' holds until the next partner", async () => {
    const fake = standIn();
    const frames: NsfwScores[] = [];
    const guard = new VideoGuard({ load: async () => fake.classifier, enabled: true, everyMs: 5, onFrame: (s) => frames.push(s) });
    guard.watch(video);
    await until(() => guard.getSnapshot().blur.mode === "clear", "the blur turning clear");
    fake.answer(EXPLICIT);
    await until(() => guard.getSnapshot().blur.mode === "flagged", "the blur turning flagged");
    guard.showAnyway();
    const seen = fake.frames();
    // A timer due after several of the guard's 5 ms frame ticks: any frame they took would be counted.
    await afterTimers(40);
    expect(guard.getSnapshot().blur.mode).toBe("shown");
    // While shown, no frame is even classified: the choice costs no CPU.
    expect(fake.frames()).toBe(seen);
    guard.watch({} as FrameSource);
    expect(guard.getSnapshot().blur.mode).not.toBe("shown");
    await until(() => guard.getSnapshot().blur.mode === "flagged", "the blur turning flagged");
    expect(frames.at(-1)).toEqual(EXPLICIT);
    guard.dispose();
  });

  test("keeps the explicit frame's still for Report, ignores a safe frame's, and forgets it at the next partner", async () => {
    const stills = { safe: new Blob(["safe frame"]), explicit: new Blob(["flagged frame"]) };
    let next: { scores: NsfwScores; still: Blob } = { scores: SAFE, still: stills.safe };
    let classified = 0;
    const classifier: FrameClassifier = { classify: async () => (classified++, { ...next, ms: 5 }) };
    const guard = new VideoGuard({ load: async () => classifier, enabled: true, everyMs: 5 });
    guard.watch(video);
    await until(() => guard.getSnapshot().blur.mode === "clear", "the blur turning clear");
    expect(guard.getSnapshot().flaggedStill).toBeNull();
    next = { scores: EXPLICIT, still: stills.explicit };
    await until(() => guard.getSnapshot().blur.mode === "flagged", "the blur turning flagged");
    expect(guard.getSnapshot().flaggedStill).toBe(stills.explicit);
    next = { scores: SAFE, still: stills.safe };
    // Two more frames classified as safe: both had their chance to replace the still.
    const asked = classified;
    await until(() => classified >= asked + 2, "two safe frames classified");
    expect(guard.getSnapshot().flaggedStill).toBe(stills.explicit);
    guard.watch({} as FrameSource);
    expect(guard.getSnapshot().flaggedStill).toBeNull();
    guard.dispose();
  });

  test("stays blurred and says so when the classifier cannot load", async () => {
    const guard = new VideoGuard({ load: () => Promise.reject(new Error("no module worker")), enabled: true, everyMs: 5 });
    // The failure is logged, as expected: muted only here, and the line checked.
    const quiet = console.error;
    const logged: unknown[][] = [];
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      guard.watch(video);
      await until(() => guard.getSnapshot().unavailable, "the guard giving up");
    } finally {
      console.error = quiet;
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toBe("Nudity classifier failed to load");
    expect(String(logged[0]![1])).toContain("no module worker");
    expect(guard.getSnapshot()).toMatchObject({ loading: false, blur: { mode: "checking" } });
    guard.showAnyway();
    expect(guard.getSnapshot().blur.mode).toBe("shown");
    guard.dispose();
  });

  test("with the setting off it never loads the classifier", async () => {
    let loads = 0;
    const guard = new VideoGuard({ load: async () => (loads++, standIn().classifier), enabled: false, everyMs: 5 });
    guard.watch(video);
    // A timer due after several of the guard's 5 ms ticks.
    await afterTimers(30);
    expect(loads).toBe(0);
    expect(guard.getSnapshot().blur.mode).toBe("off");
    guard.dispose();
  });
});
