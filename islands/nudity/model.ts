// The real classifier: nsfwjs' MobileNetV2 on TensorFlow.js. The model ships inside the nsfwjs
// package as JS (base64 weights), so nothing is fetched from elsewhere. Imported only by the
// worker and, where there is no worker, lazily by classifier.ts: never by the initial chat code.
import * as tf from "@tensorflow/tfjs";
import { load } from "nsfwjs/core";
import { MobileNetV2Model } from "nsfwjs/models/mobilenet_v2";
import { scoresFrom, type NsfwScores } from "./thresholds.ts";

/** MobileNetV2's input side: the worker scales each frame to this square. */
export const MODEL_SIDE = 224;

/** ImageData in a page or worker; plain RGBA bytes (tf.PixelData) where there is no ImageData. */
export type ClassifyPixels = (pixels: ImageData | tf.PixelData) => Promise<NsfwScores>;

/** Loads the model on the best backend the context has (WebGL, else the CPU). */
export async function loadModel(backends: readonly string[] = ["webgl", "cpu"]): Promise<ClassifyPixels> {
  // tfjs warns about production mode on every load; this is the production build.
  tf.enableProdMode();
  for (const backend of backends) {
    try {
      if (await tf.setBackend(backend)) break;
    } catch {
      // Not available here (no WebGL in this worker, say): the next one.
    }
  }
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

export const activeBackend = (): string => tf.getBackend();
