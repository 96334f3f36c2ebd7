import { describe, expect, test } from "bun:test";
import { blurLabel, blurReducer, initialBlurState, isBlurred, type BlurAction, type BlurState } from "../../islands/nudity/blur-machine.ts";
import { SAFE_FRAMES_TO_UNBLUR } from "../../islands/nudity/thresholds.ts";

const run = (actions: BlurAction[], from: BlurState = initialBlurState()) => actions.reduce(blurReducer, from);
const safe: BlurAction = { type: "frame", verdict: "safe" };
const unsure: BlurAction = { type: "frame", verdict: "unsure" };
const explicit: BlurAction = { type: "frame", verdict: "explicit" };
const safeFrames = (n: number) => Array.from({ length: n }, () => safe);

describe("the stranger's blur", () => {
  test("a new stranger starts blurred, checking", () => {
    expect(initialBlurState().mode).toBe("checking");
    expect(isBlurred(initialBlurState())).toBe(true);
  });

  test(`unblurs after ${SAFE_FRAMES_TO_UNBLUR} safe frames in a row, not before`, () => {
    expect(isBlurred(run(safeFrames(SAFE_FRAMES_TO_UNBLUR - 1)))).toBe(true);
    expect(run(safeFrames(SAFE_FRAMES_TO_UNBLUR)).mode).toBe("clear");
  });

  test("an unsure frame breaks the run of safe frames", () => {
    const state = run([...safeFrames(SAFE_FRAMES_TO_UNBLUR - 1), unsure, ...safeFrames(SAFE_FRAMES_TO_UNBLUR - 1)]);
    expect(isBlurred(state)).toBe(true);
  });

  test("an explicit frame blurs again at once, and only a new run of safe frames clears it", () => {
    const flagged = run([...safeFrames(SAFE_FRAMES_TO_UNBLUR), explicit]);
    expect(flagged.mode).toBe("flagged");
    expect(blurLabel(flagged, false)).toBe("This video may show nudity");
    expect(run(safeFrames(SAFE_FRAMES_TO_UNBLUR - 1), flagged).mode).toBe("flagged");
    expect(run(safeFrames(SAFE_FRAMES_TO_UNBLUR), flagged).mode).toBe("clear");
  });

  test("'Show anyway' holds whatever the frames say, until the next partner", () => {
    const shown = run([explicit, { type: "show_anyway" }, explicit, unsure, explicit]);
    expect(shown.mode).toBe("shown");
    expect(isBlurred(shown)).toBe(false);
    expect(run([{ type: "partner" }], shown).mode).toBe("checking");
  });

  test("Next (a new partner) resets a cleared or flagged stranger to checking", () => {
    expect(run([...safeFrames(5), { type: "partner" }])).toEqual({ mode: "checking", safeRun: 0 });
    expect(run([explicit, { type: "partner" }])).toEqual({ mode: "checking", safeRun: 0 });
  });

  test("with the setting off nothing is blurred, and turning it on checks again", () => {
    const off = initialBlurState(false);
    expect(isBlurred(run([explicit, { type: "partner" }], off))).toBe(false);
    expect(run([{ type: "setting", enabled: true }], off).mode).toBe("checking");
    expect(run([{ type: "setting", enabled: false }]).mode).toBe("off");
  });

  test("while the classifier loads the label says so", () => {
    expect(blurLabel(initialBlurState(), true)).toContain("loading");
    expect(blurLabel(initialBlurState(), false, true)).toBe("This browser can't check the video");
    expect(blurLabel({ mode: "flagged", safeRun: 0 }, false, true)).toBe("This video may show nudity");
    expect(blurLabel(initialBlurState(), false)).toBe("Checking the video…");
  });
});
