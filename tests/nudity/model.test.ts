// The real nsfwjs model (MobileNetV2, from the npm package, TensorFlow.js CPU backend) on
// synthetic inputs only: flat grey, a flat skin tone and noise. Its outputs must name exactly the
// five classes thresholds.ts reads, sum to 1, and be judged safe: a renamed class or a flat skin
// tone read as nudity would show here. The unsafe path is proven with a stand-in (video-guard).
import { beforeAll, describe, expect, test } from "bun:test";
import { loadModel, type ClassifyPixels } from "../../islands/nudity/model.ts";
import { NSFW_CLASS_NAMES, verdictOf } from "../../islands/nudity/thresholds.ts";

const SIDE = 224;
function image(pixel: (i: number) => [number, number, number]) {
  const data = new Uint8Array(SIDE * SIDE * 4);
  for (let i = 0; i < SIDE * SIDE; i++) data.set([...pixel(i), 255], i * 4);
  return { data, width: SIDE, height: SIDE };
}
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 255;

let classify: ClassifyPixels;
beforeAll(async () => {
  classify = await loadModel(["cpu"]);
}, 60_000);

describe("the real model on synthetic frames", () => {
  for (const [name, input] of [
    ["flat grey", image(() => [128, 128, 128])],
    ["a flat skin tone", image(() => [224, 172, 140])],
    ["noise", image(() => [random(), random(), random()])],
  ] as const) {
    test(`${name} gives the five classes and is judged safe`, async () => {
      const scores = await classify(input);
      expect(Object.keys(scores).sort()).toEqual([...NSFW_CLASS_NAMES].sort());
      expect(Object.values(scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
      expect(verdictOf(scores)).toBe("safe");
    }, 30_000);
  }
});
