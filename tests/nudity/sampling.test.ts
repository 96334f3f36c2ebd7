// How often the stranger's video is sampled (issue 21) and which backend is tried first: the pure
// rules, without a model or a browser.
import { describe, expect, test } from "bun:test";
import { backendOrder, isSoftwareRenderer } from "../../islands/nudity/backends.ts";
import { MIN_PERIOD_MS, nextSampleDelay } from "../../islands/nudity/sampling.ts";

describe("sampling follows the cost", () => {
  test("while checking a new stranger, frames go back to back", () => {
    for (const cost of [10, 90, 400, 3000]) expect(nextSampleDelay(cost, "checking")).toBe(0);
  });

  test("once clear, a frame under 150 ms is checked at least 3 times a second, at most 5", () => {
    for (let cost = 1; cost < 150; cost++) {
      const period = cost + nextSampleDelay(cost, "clear");
      expect(1000 / period).toBeGreaterThanOrEqual(3);
      expect(period).toBeGreaterThanOrEqual(MIN_PERIOD_MS);
    }
  });

  test("a slow backend keeps the worker busy at most half the time", () => {
    for (const cost of [150, 400, 2000]) for (const mode of ["clear", "flagged"] as const) expect(nextSampleDelay(cost, mode)).toBe(cost);
  });
});

describe("backend order", () => {
  test("wasm first, WebGL only on a real GPU, the CPU last", () => {
    expect(backendOrder({ wasm: true, gpu: "hardware" })).toEqual(["wasm", "webgl", "cpu"]);
    expect(backendOrder({ wasm: true, gpu: "software" })).toEqual(["wasm", "cpu"]);
    expect(backendOrder({ wasm: false, gpu: "software" })).toEqual(["cpu"]);
    expect(backendOrder({ wasm: false, gpu: "hardware" })).toEqual(["webgl", "cpu"]);
    expect(backendOrder({ wasm: true, gpu: "none" })).toEqual(["wasm", "cpu"]);
  });

  test("software renderers are recognised by name", () => {
    for (const name of ["Google SwiftShader", "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)", "llvmpipe (LLVM 15.0.6, 256 bits)", "Microsoft Basic Render Driver"]) {
      expect(isSoftwareRenderer(name)).toBe(true);
    }
    for (const name of ["ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)", "Apple GPU", "Adreno (TM) 610", "Mali-G52"]) expect(isSoftwareRenderer(name)).toBe(false);
  });
});
