// The classifier's own thread: frames arrive unscaled (a VideoFrame, else an ImageBitmap), are
// scaled to the model's side on an OffscreenCanvas and classified here, so the page never stalls
// on the scaling or the model.
import { loadModel, activeBackend, MODEL_SIDE } from "./model.ts";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.ts";

// The DOM lib types `self` as a window; a dedicated worker's scope is this much of it.
interface WorkerScope {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
}
const scope = globalThis as unknown as WorkerScope;

const ready = loadModel();
const canvas = new OffscreenCanvas(MODEL_SIDE, MODEL_SIDE);
const context = canvas.getContext("2d", { willReadFrequently: true });

ready.then(
  () => scope.postMessage({ type: "ready", backend: activeBackend() } satisfies WorkerReply),
  (error: unknown) => scope.postMessage({ type: "failed", message: String(error) } satisfies WorkerReply),
);

scope.onmessage = async ({ data }: MessageEvent<WorkerRequest>) => {
  const { id, frame } = data;
  try {
    const classify = await ready;
    if (!context) throw new Error("no 2d context on OffscreenCanvas");
    try {
      context.drawImage(frame, 0, 0, MODEL_SIDE, MODEL_SIDE);
    } finally {
      // A VideoFrame held open keeps a decoder buffer: the sender's video can stall on it.
      frame.close();
    }
    const started = performance.now();
    const scores = await classify(context.getImageData(0, 0, MODEL_SIDE, MODEL_SIDE));
    scope.postMessage({ type: "scores", id, scores, ms: performance.now() - started } satisfies WorkerReply);
  } catch (error) {
    frame.close();
    scope.postMessage({ type: "error", id, message: String(error) } satisfies WorkerReply);
  }
};
