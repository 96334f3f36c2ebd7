// The real classifier: nsfwjs' MobileNetV2 on TensorFlow.js. The model ships inside the nsfwjs
// package as JS (base64 weights), so nothing is fetched from elsewhere. Imported only by the
// worker (and by tests): never by the initial chat code.
import * as tf from "@tensorflow/tfjs";
// Registers the "wasm" backend next to tfjs' own webgl and cpu ones (issue 21).
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { load } from "nsfwjs/core";
import { MobileNetV2Model } from "nsfwjs/models/mobilenet_v2";
import type { BackendLabel, BackendName, WasmPaths } from "./backends.ts";
import { scoresFrom, type NsfwScores } from "./thresholds.ts";

/** MobileNetV2's input side: the worker scales each frame to this square. */
export const MODEL_SIDE = 224;

/** ImageData in a page or worker; plain RGBA bytes (tf.PixelData) where there is no ImageData. */
export type ClassifyPixels = (pixels: ImageData | tf.PixelData) => Promise<NsfwScores>;

export interface LoadOptions {
  /** Tried in this order; the first that initialises runs (islands/nudity/backends.ts). */
  backends: readonly BackendName[];
  /** Where the .wasm files are: our own URLs (or, in Bun, file paths). Required to try wasm. */
  wasmPaths?: WasmPaths;
}

/** Loads the model on the first backend of the list that works here. */
export async function loadModel({ backends, wasmPaths }: LoadOptions): Promise<ClassifyPixels> {
  // tfjs warns about production mode on every load; this is the production build.
  tf.enableProdMode();
  if (wasmPaths) setWasmPaths(wasmPaths);
  let chosen = false;
  for (const backend of backends) {
    if (backend === "wasm" && !wasmPaths) continue;
    try {
      if (await tf.setBackend(backend)) {
        chosen = true;
        break;
      }
    } catch {
      // Not available here (no WebGL in this worker, a .wasm that failed to load): the next one.
    }
  }
  if (!chosen) throw new Error(`no TensorFlow.js backend of ${backends.join(", ")} initialised`);
  await tf.ready();
  const model = await load("MobileNetV2", { modelDefinitions: [MobileNetV2Model] });
  return async (pixels) => {
    // As a tensor first: nsfwjs' own types do not take plain bytes, tfjs does.
    const tensor = tf.browser.fromPixels(pixels);
    try {
      return scoresFrom(await model.classify(tensor, 5));
    } finally {
      tensor.dispose();
    }
  };
}

/** The backend that runs, with the wasm build it loaded (SIMD or not). */
export async function activeBackend(): Promise<BackendLabel> {
  const name = tf.getBackend();
  if (name === "wasm") return (await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT")) ? "wasm-simd" : "wasm";
  return name === "webgl" ? "webgl" : "cpu";
}
