// Messages between classifier.ts and worker.ts.
import type { NsfwScores } from "./thresholds.ts";

export interface WorkerRequest {
  id: number;
  frame: ImageBitmap;
}

export type WorkerReply =
  | { type: "ready"; backend: string }
  | { type: "failed"; message: string }
  | { type: "scores"; id: number; scores: NsfwScores; ms: number }
  | { type: "error"; id: number; message: string };
