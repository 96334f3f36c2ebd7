// Watches one <video> (the roulette stranger's) and keeps its BlurState: the side effects around
// the pure blur-machine. The classifier comes in as a loader, so tests drive it with a stand-in
// and no model. Frames go to the classifier one at a time, as often as its cost allows
// (sampling.ts): the next sample waits for the last verdict rather than piling up.
import { blurReducer, initialBlurState, type BlurAction, type BlurState } from "./blur-machine.ts";
import type { FrameClassifier, FrameSource } from "./classifier.ts";
import type { BackendLabel } from "./backends.ts";
import { nextSampleDelay, WAIT_FOR_FRAME_MS } from "./sampling.ts";
import { verdictOf, type NsfwScores } from "./thresholds.ts";

export interface GuardSnapshot {
  blur: BlurState;
  /** The classifier is still loading (the video stays blurred, "Show anyway" is offered). */
  loading: boolean;
  /** It could not load (an old browser, a failed download): blurred until "Show anyway". */
  unavailable: boolean;
  /** This stranger's last explicit frame as a JPEG, for Report to attach; null until one. */
  flaggedStill: Blob | null;
  /** The backend the classifier runs on once loaded: a report's still records it (issue 21). */
  backend: BackendLabel | null;
}

export interface GuardDeps {
  load: () => Promise<FrameClassifier>;
  enabled: boolean;
  /** A fixed gap between samples (tests); by default it follows the cost (sampling.ts). */
  everyMs?: number;
  /** Each frame's scores and model time, for measurements (performance marks in the page). */
  onFrame?: (scores: NsfwScores, ms: number) => void;
}

export class VideoGuard {
  private snapshot: GuardSnapshot;
  private readonly listeners = new Set<() => void>();
  private video: FrameSource | null = null;
  private classifier: FrameClassifier | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private busy = false;
  /** The last frame's round trip, page to worker and back. */
  private costMs = 0;
  private disposed = false;

  constructor(private readonly deps: GuardDeps) {
    this.snapshot = { blur: initialBlurState(deps.enabled), loading: deps.enabled, unavailable: false, flaggedStill: null, backend: null };
    if (deps.enabled) this.loadClassifier();
  }

  readonly getSnapshot = (): GuardSnapshot => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A new stranger (or none): blurred again until their own frames are seen. */
  watch(video: FrameSource | null): void {
    this.video = video;
    if (this.snapshot.flaggedStill) this.set({ ...this.snapshot, flaggedStill: null });
    this.dispatch({ type: "partner" });
    this.schedule(0);
  }

  showAnyway(): void {
    this.dispatch({ type: "show_anyway" });
  }

  setEnabled(enabled: boolean): void {
    this.dispatch({ type: "setting", enabled });
    if (enabled) this.loadClassifier();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }

  private loadClassifier(): void {
    if (this.classifier) return;
    this.deps.load().then(
      (classifier) => {
        this.classifier = classifier;
        this.set({ ...this.snapshot, loading: false, backend: classifier.backend ?? null });
        this.schedule(0);
      },
      // The video stays blurred; "Show anyway" is the way past it.
      (error: unknown) => {
        console.error("Nudity classifier failed to load", error);
        this.set({ ...this.snapshot, loading: false, unavailable: true });
      },
    );
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = this.disposed ? null : setTimeout(() => void this.sample(), delay);
  }

  private async sample(): Promise<void> {
    const { video, classifier } = this;
    const mode = this.snapshot.blur.mode;
    const waiting = this.deps.everyMs ?? WAIT_FOR_FRAME_MS;
    if (this.busy || !video || !classifier || mode === "off" || mode === "shown") return this.schedule(waiting);
    this.busy = true;
    let delay = waiting;
    try {
      const started = performance.now();
      const result = await classifier.classify(video);
      // A frame from the previous stranger must not judge the new one.
      if (result && video === this.video && !this.disposed) {
        this.costMs = performance.now() - started;
        this.deps.onFrame?.(result.scores, result.ms);
        const verdict = verdictOf(result.scores);
        if (verdict === "explicit" && result.still) this.set({ ...this.snapshot, flaggedStill: result.still });
        this.dispatch({ type: "frame", verdict });
        delay = this.deps.everyMs ?? nextSampleDelay(this.costMs, this.snapshot.blur.mode);
      }
    } catch (error) {
      console.error("Nudity classifier failed on a frame", error);
    } finally {
      this.busy = false;
    }
    this.schedule(delay);
  }

  private dispatch(action: BlurAction): void {
    const blur = blurReducer(this.snapshot.blur, action);
    if (blur !== this.snapshot.blur) this.set({ ...this.snapshot, blur });
  }

  private set(snapshot: GuardSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}
