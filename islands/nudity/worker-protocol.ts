// Messages between classifier.ts and worker.ts.
import type { BackendLabel } from "./backends.ts";
import type { NsfwScores } from "./thresholds.ts";

export interface WorkerRequest {
  id: number;
  /** Unscaled: the worker draws it at the model's side. */
  frame: ImageBitmap | VideoFrame;
}

export type WorkerReply =
  | { type: "ready"; backend: BackendLabel }
  | { type: "failed"; message: string }
  | { type: "scores"; id: number; scores: NsfwScores; ms: number; still?: Blob }
  | { type: "error"; id: number; message: string };
