// The still that goes with a call or roulette report: the video's current frame on a canvas, at
// most 640 px on its longest side, as JPEG; nothing when the video has no frame yet.
import { registerDom, unregisterDom } from "../support/dom.ts";
import { afterAll, afterEach, describe, expect, spyOn, test } from "bun:test";
import { captureStill, STILL_JPEG_QUALITY, stillSize } from "../../islands/media/still.ts";

registerDom();
afterAll(() => unregisterDom());

/** A canvas that records what was drawn and encodes to a fixed blob. */
function fakeCanvas() {
  const drawn: { width: number; height: number }[] = [];
  const encoded: { type?: string; quality?: unknown }[] = [];
  const canvas = {
    width: 0,
    height: 0,
    getContext: () => ({ drawImage: (_source: unknown, _x: number, _y: number, width: number, height: number) => void drawn.push({ width, height }) }),
    toBlob: (done: (blob: Blob | null) => void, type?: string, quality?: unknown) => {
      encoded.push({ type, quality });
      done(new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }));
    },
  };
  return { canvas, drawn, encoded };
}

function video(width: number, height: number, readyState = 4): HTMLVideoElement {
  return Object.defineProperties(document.createElement("video"), {
    videoWidth: { value: width },
    videoHeight: { value: height },
    readyState: { value: readyState },
  });
}

const spies: { mockRestore(): void }[] = [];

/** document.createElement("canvas") answers a fake canvas (happy-dom has no 2D context). */
function withCanvas() {
  const fake = fakeCanvas();
  const original = document.createElement.bind(document);
  spies.push(
    spyOn(document, "createElement").mockImplementation(((tag: string) => (tag === "canvas" ? fake.canvas : original(tag))) as typeof document.createElement),
  );
  return fake;
}

afterEach(() => spies.splice(0).forEach((spy) => spy.mockRestore()));

describe("stillSize", () => {
  test("scales the longest side down to 640 px and keeps the shape", () => {
    expect(stillSize(1280, 720)).toEqual({ width: 640, height: 360 });
    expect(stillSize(480, 1920)).toEqual({ width: 160, height: 640 });
  });

  test("never scales a small frame up", () => {
    expect(stillSize(320, 240)).toEqual({ width: 320, height: 240 });
  });
});

describe("captureStill", () => {
  test("draws the current frame at most 640 px wide and encodes it as JPEG at quality 0.85", async () => {
    const source = video(1280, 720);
    const t = withCanvas();
    const blob = await captureStill(source);
    expect(t.canvas.width).toBe(640);
    expect(t.canvas.height).toBe(360);
    expect(t.drawn).toEqual([{ width: 640, height: 360 }]);
    expect(t.encoded).toEqual([{ type: "image/jpeg", quality: STILL_JPEG_QUALITY }]);
    expect(STILL_JPEG_QUALITY).toBe(0.85);
    expect(blob?.type).toBe("image/jpeg");
  });

  test("answers null, without drawing, while the video has no frame", async () => {
    const t = withCanvas();
    expect(await captureStill(video(1280, 720, 1))).toBeNull();
    expect(await captureStill(video(0, 0))).toBeNull();
    expect(t.drawn).toEqual([]);
  });
});
