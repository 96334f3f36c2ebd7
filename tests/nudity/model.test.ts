// The real nsfwjs model (MobileNetV2, from the npm package) on safe inputs only: synthetic frames
// (flat grey, a flat skin tone, noise) and the README's screenshots (the fake camera's picture in
// a call and in Video Roulette, the chat, the landing page). On the CPU backend its outputs must
// name exactly the five classes thresholds.ts reads, sum to 1, and be judged safe: a renamed class
// or a flat skin tone read as nudity would show here. The wasm backend the browser worker runs
// first (issue 21) must give the same scores within 0.02, so it flags what the CPU one flags.
// The unsafe path is proven with a stand-in (video-guard).
import { beforeAll, describe, expect, test } from "bun:test";
import { dirname, join } from "node:path";
import sharp from "sharp";
import type { WasmPaths } from "../../islands/nudity/backends.ts";
import { activeBackend, loadModel, MODEL_SIDE } from "../../islands/nudity/model.ts";
import { NSFW_CLASS_NAMES, verdictOf, type NsfwScores } from "../../islands/nudity/thresholds.ts";

type Pixels = { data: Uint8Array; width: number; height: number };

function image(pixel: (i: number) => [number, number, number]): Pixels {
  const data = new Uint8Array(MODEL_SIDE * MODEL_SIDE * 4);
  for (let i = 0; i < MODEL_SIDE * MODEL_SIDE; i++) data.set([...pixel(i), 255], i * 4);
  return { data, width: MODEL_SIDE, height: MODEL_SIDE };
}
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 255;

const SYNTHETIC: [string, Pixels][] = [
  ["flat grey", image(() => [128, 128, 128])],
  ["a flat skin tone", image(() => [224, 172, 140])],
  ["noise", image(() => [random(), random(), random()])],
];
const SCREENSHOTS = ["call-connected", "roulette-connected", "roulette-mobile", "call-mobile", "chat-list", "landing", "profile"];

/** A screenshot scaled to the model's square, as the worker's canvas does with a frame. */
async function screenshot(name: string): Promise<Pixels> {
  const file = join(import.meta.dir, "..", "..", "docs", "screenshots", `${name}.png`);
  const data = await sharp(file).resize(MODEL_SIDE, MODEL_SIDE, { fit: "fill" }).ensureAlpha().raw().toBuffer();
  return { data: new Uint8Array(data), width: MODEL_SIDE, height: MODEL_SIDE };
}

/** In Bun the backend reads the .wasm files from the package itself. */
function packageWasm(): WasmPaths {
  const dist = join(dirname(Bun.resolveSync("@tensorflow/tfjs-backend-wasm/package.json", import.meta.dir)), "dist");
  const path = (name: keyof WasmPaths) => join(dist, name);
  return {
    "tfjs-backend-wasm.wasm": path("tfjs-backend-wasm.wasm"),
    "tfjs-backend-wasm-simd.wasm": path("tfjs-backend-wasm-simd.wasm"),
    "tfjs-backend-wasm-threaded-simd.wasm": path("tfjs-backend-wasm-threaded-simd.wasm"),
  };
}

const inputs: [string, Pixels][] = [...SYNTHETIC];
const cpu = new Map<string, NsfwScores>();
const wasm = new Map<string, NsfwScores>();
let wasmBackend = "";

// One backend at a time: tfjs has one active backend, so every CPU score is taken before wasm loads.
beforeAll(async () => {
  for (const name of SCREENSHOTS) inputs.push([`the ${name} screenshot`, await screenshot(name)]);
  const onCpu = await loadModel({ backends: ["cpu"] });
  for (const [name, pixels] of inputs) cpu.set(name, await onCpu(pixels));
  const onWasm = await loadModel({ backends: ["wasm"], wasmPaths: packageWasm() });
  wasmBackend = await activeBackend();
  for (const [name, pixels] of inputs) wasm.set(name, await onWasm(pixels));
}, 180_000);

describe("the real model on safe frames", () => {
  for (const [name] of SYNTHETIC) {
    test(`${name} gives the five classes and is judged safe`, () => {
      const scores = cpu.get(name)!;
      expect(Object.keys(scores).sort()).toEqual([...NSFW_CLASS_NAMES].sort());
      expect(Object.values(scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
      expect(verdictOf(scores)).toBe("safe");
    });
  }

  test("the wasm backend (SIMD) gives the CPU backend's scores within 0.02 on every safe frame", () => {
    expect(wasmBackend).toBe("wasm-simd");
    const worst = { diff: 0, where: "" };
    for (const [name] of inputs) {
      const a = cpu.get(name)!;
      const b = wasm.get(name)!;
      expect(verdictOf(b)).toBe(verdictOf(a));
      for (const label of NSFW_CLASS_NAMES) {
        const diff = Math.abs(a[label] - b[label]);
        if (diff > worst.diff) Object.assign(worst, { diff, where: `${name}, ${label}` });
      }
    }
    console.log(`wasm vs cpu over ${inputs.length} safe frames: largest score difference ${worst.diff.toExponential(2)} (${worst.where || "none"})`);
    expect(worst.diff).toBeLessThanOrEqual(0.02);
  });
});
