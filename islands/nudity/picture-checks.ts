// Verdicts on chat pictures (issue 12), kept in memory per picture URL for this page: a picture is
// classified once, the first time its <img> has loaded with the setting on, never on a later
// render or in another grid. The classifier module is imported on the first picture that needs a
// look, so neither it nor the model is part of the initial chat JavaScript.
import type { FrameClassifier } from "./classifier.ts";
import { verdictOf, type Verdict } from "./thresholds.ts";

/** "checking" until the model has answered; "failed" when it could not (treated as not cleared). */
export type PictureVerdict = Verdict | "checking" | "failed";

type Loader = () => Promise<FrameClassifier>;

const defaultLoader: Loader = () => import("./classifier.ts").then((m) => m.getClassifier());

let load: Loader = defaultLoader;
const verdicts = new Map<string, PictureVerdict>();
const listeners = new Set<() => void>();

/** Tests put a stand-in classifier here (and get an empty cache); null restores the real one. */
export function setPictureClassifier(loader: Loader | null): void {
  load = loader ?? defaultLoader;
  verdicts.clear();
}

export const pictureVerdict = (url: string): PictureVerdict | undefined => verdicts.get(url);

export function subscribePictureVerdicts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function settle(url: string, verdict: PictureVerdict): void {
  verdicts.set(url, verdict);
  for (const listener of listeners) listener();
}

/** A picture may show without a cover only once the model has found it safe or merely unsure. */
export const pictureCleared = (url: string): boolean => {
  const verdict = verdicts.get(url);
  return verdict === "safe" || verdict === "unsure";
};

/** Classifies a loaded <img> unless its URL already has a verdict or is being checked. */
export function checkPicture(url: string, image: HTMLImageElement): void {
  if (verdicts.has(url)) return;
  settle(url, "checking");
  load()
    .then((classifier) => classifier.classify(image))
    .then(
      (result) => settle(url, result ? verdictOf(result.scores) : "failed"),
      (error: unknown) => {
        console.error("Nudity classifier failed on a picture", error);
        settle(url, "failed");
      },
    );
}
