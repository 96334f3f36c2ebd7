// The classifier as the UI sees it: give it a video or an image, get the five scores back. It is
// loaded once per page, the first time roulette starts or a picture needs a look, in a module
// Worker with OffscreenCanvas (the build names the worker's URL), so the model never runs on the
// main thread: here the frame is only taken (a VideoFrame), the worker scales it.
// There is no in-page fallback: every current browser has module workers and OffscreenCanvas
// (Chrome 80, Firefox 114, Safari 16.4); older ones (iOS before 16.4, Firefox before 114) get a
// classifier that fails to load, so the stranger stays blurred with "Show anyway" and pictures
// keep "Tap to view". An earlier requestIdleCallback path ran the model on the page, untested, in
// a build that dropped tfjs' browser platform; it was removed rather than shipped broken.
import type { BackendLabel } from "./backends.ts";
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
  /** The TensorFlow.js backend the model runs on (issue 21); stand-ins in tests may leave it out. */
  readonly backend?: BackendLabel;
  /** Null when the source has no frame to read yet. */
  classify(source: FrameSource): Promise<Classified | null>;
}

/** Set by scripts/build-client.ts; absent when islands run unbundled (unit tests). */
const workerUrl: string | undefined = process.env.NUDITY_WORKER_URL;

let shared: Promise<FrameClassifier> | null = null;

/** The page's one classifier, loading on first use. */
export function getClassifier(): Promise<FrameClassifier> {
  shared ??= (
    workerUrl && typeof Worker === "function" && typeof OffscreenCanvas === "function"
      ? workerClassifier(workerUrl)
      : Promise.reject(new Error("this browser has no module worker with OffscreenCanvas for the nudity classifier"))
  ).catch((error: unknown) => {
    shared = null;
    throw error;
  });
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
  const waiting = new Map<number, { resolve(result: Classified): void; reject(error: Error): void }>();
  let nextId = 1;
  return new Promise((resolve, reject) => {
    // Inside the promise: Chrome before 80 throws here ("Module scripts are not supported on
    // DedicatedWorker yet"), and that must reject like any other load failure, not throw.
    const worker = new Worker(url, { type: "module", name: "nudity-classifier" });
    worker.onerror = (event) => reject(new Error(`nudity worker: ${event.message}`));
    worker.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
      if (data.type === "failed") return reject(new Error(data.message));
      if (data.type === "ready") {
        return resolve({
          backend: data.backend,
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
