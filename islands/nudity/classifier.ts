// The classifier as the UI sees it: give it a video or an image, get the five scores back. It is
// loaded once per page, the first time roulette starts or a picture needs a look:
//   - in a Worker with OffscreenCanvas (the build names the worker's URL), so the model never
//     runs on the main thread: here the frame is only taken (a VideoFrame), the worker scales it;
//   - elsewhere the model is imported into the page and each frame waits for an idle moment.
import { MODEL_SIDE_PX } from "./frame.ts";
import type { NsfwScores } from "./thresholds.ts";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.ts";

export type FrameSource = HTMLVideoElement | HTMLImageElement | ImageBitmap;

export interface Classified {
  scores: NsfwScores;
  /** The model's own time for this frame, in milliseconds. */
  ms: number;
  /** An explicit frame as a JPEG: the evidence still a report attaches (issue 12). */
  still?: Blob;
}

export interface FrameClassifier {
  /** Null when the source has no frame to read yet. */
  classify(source: FrameSource): Promise<Classified | null>;
}

/** Set by scripts/build-client.ts; absent when islands run unbundled (unit tests). */
const workerUrl: string | undefined = process.env.NUDITY_WORKER_URL;

let shared: Promise<FrameClassifier> | null = null;

/** The page's one classifier, loading on first use. */
export function getClassifier(): Promise<FrameClassifier> {
  shared ??= (workerUrl && typeof Worker === "function" && typeof OffscreenCanvas === "function" ? workerClassifier(workerUrl) : pageClassifier()).catch(
    (error: unknown) => {
      shared = null;
      throw error;
    },
  );
  return shared;
}

const hasFrame = (source: FrameSource) =>
  source instanceof HTMLVideoElement ? source.readyState >= 2 && source.videoWidth > 0 : source instanceof HTMLImageElement ? source.complete && source.naturalWidth > 0 : true;

/**
 * The frame as it is, for the worker to scale. A VideoFrame only references the decoded picture,
 * so taking one costs the page well under a millisecond; createImageBitmap with a resize did the
 * scaling here and blocked the main thread for 59-269 ms per frame in headless Chromium.
 * createImageBitmap without options is the path where there is no VideoFrame (Firefox before 130).
 */
function unscaled(source: FrameSource): VideoFrame | Promise<ImageBitmap> {
  if (typeof VideoFrame === "function" && !(source instanceof ImageBitmap)) return new VideoFrame(source, { timestamp: 0 });
  return createImageBitmap(source);
}

function workerClassifier(url: string): Promise<FrameClassifier> {
  const worker = new Worker(url, { type: "module", name: "nudity-classifier" });
  const waiting = new Map<number, { resolve(result: Classified): void; reject(error: Error): void }>();
  let nextId = 1;
  return new Promise((resolve, reject) => {
    worker.onerror = (event) => reject(new Error(`nudity worker: ${event.message}`));
    worker.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
      if (data.type === "failed") return reject(new Error(data.message));
      if (data.type === "ready") {
        return resolve({
          async classify(source) {
            if (!hasFrame(source)) return null;
            // The two slices this costs the main thread, as User Timing entries the browser suite checks.
            let start = performance.now();
            const taking = unscaled(source);
            performance.measure("nudity-main-thread", { start, end: performance.now() });
            const frame = await taking;
            start = performance.now();
            const id = nextId++;
            const reply = new Promise<Classified>((done, fail) => waiting.set(id, { resolve: done, reject: fail }));
            worker.postMessage({ id, frame } satisfies WorkerRequest, [frame]);
            performance.measure("nudity-main-thread", { start, end: performance.now() });
            return reply;
          },
        });
      }
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.type === "scores") pending?.resolve({ scores: data.scores, ms: data.ms, ...(data.still ? { still: data.still } : {}) });
      else pending?.reject(new Error(data.message));
    };
  });
}

const idle = () =>
  new Promise<void>((resolve) => (typeof requestIdleCallback === "function" ? requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 50)));

async function pageClassifier(): Promise<FrameClassifier> {
  const { loadModel } = await import("./model.ts");
  const classify = await loadModel();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = MODEL_SIDE_PX;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("no 2d canvas for the nudity classifier");
  return {
    async classify(source) {
      if (!hasFrame(source)) return null;
      await idle();
      context.drawImage(source, 0, 0, MODEL_SIDE_PX, MODEL_SIDE_PX);
      const started = performance.now();
      const scores = await classify(context.getImageData(0, 0, MODEL_SIDE_PX, MODEL_SIDE_PX));
      return { scores, ms: performance.now() - started };
    },
  };
}
