// The classifier's own thread: frames arrive unscaled (a VideoFrame, else an ImageBitmap), are
// scaled to the model's side on an OffscreenCanvas and classified here, so the page never stalls
// on the scaling or the model.
import { STILL_JPEG_QUALITY, stillSize } from "../media/still.ts";
import { backendOrder, hasWebAssembly, probeGpu, type WasmPaths } from "./backends.ts";
import { loadModel, activeBackend, MODEL_SIDE } from "./model.ts";
import { verdictOf } from "./thresholds.ts";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.ts";

// The DOM lib types `self` as a window; a dedicated worker's scope is this much of it.
interface WorkerScope {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
}
const scope = globalThis as unknown as WorkerScope;

/** Set by scripts/build-client.ts: the hashed URLs of the .wasm files in our own build. */
const wasmPaths: WasmPaths | undefined = process.env.NUDITY_WASM_PATHS ? (JSON.parse(process.env.NUDITY_WASM_PATHS) as WasmPaths) : undefined;

/** wasm first; only if it fails is a WebGL context made to see whether a real GPU is there. */
async function loadBest() {
  const wasm = hasWebAssembly() && wasmPaths !== undefined;
  if (wasm) {
    try {
      return await loadModel({ backends: ["wasm"], wasmPaths });
    } catch {
      // A .wasm that failed to download or compile: the other backends.
    }
  }
  return loadModel({ backends: backendOrder({ wasm: false, gpu: probeGpu() }) });
}

const ready = loadBest();
const canvas = new OffscreenCanvas(MODEL_SIDE, MODEL_SIDE);
const context = canvas.getContext("2d", { willReadFrequently: true });

ready.then(
  async () => scope.postMessage({ type: "ready", backend: await activeBackend() } satisfies WorkerReply),
  (error: unknown) => scope.postMessage({ type: "failed", message: String(error) } satisfies WorkerReply),
);

/** The flagged frame itself, at the size of a report's still, encoded here rather than on the page. */
async function stillOf(frame: ImageBitmap | VideoFrame): Promise<Blob | undefined> {
  const [w, h] = frame instanceof ImageBitmap ? [frame.width, frame.height] : [frame.displayWidth, frame.displayHeight];
  const { width, height } = stillSize(w, h);
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext("2d")?.drawImage(frame, 0, 0, width, height);
  return canvas.convertToBlob({ type: "image/jpeg", quality: STILL_JPEG_QUALITY });
}

scope.onmessage = async ({ data }: MessageEvent<WorkerRequest>) => {
  const { id, frame } = data;
  try {
    const classify = await ready;
    if (!context) throw new Error("no 2d context on OffscreenCanvas");
    context.drawImage(frame, 0, 0, MODEL_SIDE, MODEL_SIDE);
    const started = performance.now();
    const scores = await classify(context.getImageData(0, 0, MODEL_SIDE, MODEL_SIDE));
    const ms = performance.now() - started;
    // Held until the verdict so that an explicit frame, not a later one, is what a report shows.
    const still = verdictOf(scores) === "explicit" ? await stillOf(frame) : undefined;
    scope.postMessage({ type: "scores", id, scores, ms, ...(still ? { still } : {}) } satisfies WorkerReply);
  } catch (error) {
    scope.postMessage({ type: "error", id, message: String(error) } satisfies WorkerReply);
  } finally {
    // One frame at a time is held (the page waits for each reply); a VideoFrame left open would
    // keep a decoder buffer and can stall the stranger's video.
    frame.close();
  }
};
