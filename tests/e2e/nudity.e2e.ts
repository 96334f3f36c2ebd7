// Issues 12 and 21 in real Chromium with the real model: two strangers on the fake camera, whose
// test pattern is the "safe" input. Each sees the other blurred with "Checking the video…" and the
// three buttons; the classifier (nsfwjs in a worker, on the wasm backend) unblurs it after a few
// safe frames. Prints, with the machine's load average (a loaded machine stretches every figure):
// the model's time per frame (p50, p95 over at least 50 frames), the page's long tasks and the
// classifier's own main-thread slices, how long a new partner's first frame stays blurred, and how
// long an explicit frame on screen takes to blur. The explicit frame is a stand-in: Omar's camera
// turns solid red on demand, and a wrapper around the real worker (served only here, by a route)
// reports a red frame as explicit after the real model has run on it, so its cost is the real one.
// The unsafe path without a browser is proven in tests/nudity.
import { describe, expect, test } from "bun:test";
import { loadavg } from "node:os";
import type { BrowserContext, Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { screenshot } from "./support/screenshots.ts";
import { openVideoTab, rouletteSection, waitForRouletteStatus } from "./support/screens.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 60_000 };
// A loaded 2-core machine (load averages of 25-35 were seen) stretches a frame to seconds.
const MODEL_WAIT = { timeout: 240_000 };
/** Frames the checks below need before they look; the figures are taken over the whole file. */
const FIRST_FRAMES = 10;
const FRAMES_MEASURED = 50;
const EXPLICIT_TRIALS = 8;
const PAIRINGS = 5;

/** The 1, 5 and 15 minute load averages, printed with every figure (2 cores here). */
const load = () => `load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`;

/**
 * From page start: long tasks, and what the page posts to workers (the frame's kind and whether
 * it was transferred), kept for the test to read.
 */
const recordLongTasks = () => {
  const w = window as unknown as { longTasks: { start: number; ms: number }[]; posted: { frame: string; transferred: boolean }[] };
  w.longTasks = [];
  w.posted = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: unknown) => void;
  Object.assign(Worker.prototype, {
    postMessage(this: Worker, message: unknown, transfer?: unknown) {
      const frame = (message as { frame?: object } | null)?.frame;
      if (frame) w.posted.push({ frame: frame.constructor.name, transferred: Array.isArray(transfer) && transfer.includes(frame) });
      post.call(this, message, transfer);
    },
  });
};

/**
 * Nina's page (the receiver): when each new partner stream shows its first frame, when the blur
 * comes and goes, and (armed by the test) when the first red frame is on screen.
 */
const measureBlur = () => {
  type Log = { frames: { src: number; t: number }[]; unblurs: { src: number; t: number }[]; blurs: number[]; red: number[] };
  const w = window as unknown as { blurLog: Log; watchRed: boolean };
  w.blurLog = { frames: [], unblurs: [], blurs: [], red: [] };
  w.watchRed = false;
  // The backend the worker says it loaded ("ready"), for the test to print and check.
  const NativeWorker = Worker;
  window.Worker = class extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener("message", (event: MessageEvent<{ type?: string; backend?: string }>) => {
        if (event.data?.type === "ready") Object.assign(window, { nudityBackend: event.data.backend });
      });
    }
  };
  const ids = new WeakMap<object, number>();
  let streams = 0;
  const idOf = (stream: object) => {
    if (!ids.has(stream)) ids.set(stream, ++streams);
    return ids.get(stream)!;
  };
  let probe: CanvasRenderingContext2D | null = null;
  const watched = new WeakSet<HTMLVideoElement>();
  const watch = (video: HTMLVideoElement) => {
    let last: MediaProvider | null = null;
    const onFrame = (now: number) => {
      const stream = video.srcObject;
      if (stream && stream !== last) w.blurLog.frames.push({ src: idOf(stream), t: now });
      last = stream;
      if (w.watchRed && stream) {
        probe ??= document.createElement("canvas").getContext("2d", { willReadFrequently: true });
        probe?.drawImage(video, 0, 0, 1, 1);
        const [r = 0, g = 0, b = 0] = probe?.getImageData(0, 0, 1, 1).data ?? [];
        if (r > 200 && g < 60 && b < 60) {
          w.blurLog.red.push(now);
          w.watchRed = false;
        }
      }
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        for (const video of [node, ...node.querySelectorAll("video")]) {
          if (video instanceof HTMLVideoElement && video.matches(".roulette-remote") && !watched.has(video)) {
            watched.add(video);
            watch(video);
          }
        }
      }
      const target = record.target;
      if (record.type !== "attributes" || !(target instanceof HTMLVideoElement) || !target.matches(".roulette-remote")) continue;
      const was = (record.oldValue ?? "").includes("is-blurred");
      const is = target.classList.contains("is-blurred");
      if (was && !is) w.blurLog.unblurs.push({ src: target.srcObject ? idOf(target.srcObject) : 0, t: performance.now() });
      if (!was && is) w.blurLog.blurs.push(performance.now());
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });
};

/** Omar's camera through a canvas: the fake camera's picture, or solid red while `explicitOn`. */
const redOnDemandCamera = () => {
  const w = window as unknown as { explicitOn: boolean };
  w.explicitOn = false;
  const devices = navigator.mediaDevices;
  const original = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    const [camera] = stream.getVideoTracks();
    if (!camera) return stream;
    const video = document.createElement("video");
    video.muted = true;
    video.srcObject = new MediaStream([camera]);
    await video.play();
    const canvas = document.createElement("canvas");
    canvas.width = 640;
    canvas.height = 480;
    const g = canvas.getContext("2d")!;
    const timer = setInterval(() => {
      if (w.explicitOn) {
        g.fillStyle = "#ff0000";
        g.fillRect(0, 0, canvas.width, canvas.height);
      } else g.drawImage(video, 0, 0, canvas.width, canvas.height);
    }, 100);
    const [track] = canvas.captureStream(10).getVideoTracks();
    const stop = track!.stop.bind(track);
    track!.stop = () => {
      clearInterval(timer);
      stop();
      camera.stop();
    };
    return new MediaStream([track!, ...stream.getAudioTracks()]);
  };
};

/**
 * The stand-in classifier: the real worker, imported by a wrapper that marks a red frame (looked at
 * on a 4x4 canvas before the real worker takes it) and answers explicit scores for it once the real
 * model has classified it. Served in place of the worker file, for this test's pages only.
 */
const STAND_IN_WORKER = `
const EXPLICIT = { Drawing: 0, Hentai: 0.05, Neutral: 0.03, Porn: 0.9, Sexy: 0.02 };
const probe = new OffscreenCanvas(4, 4).getContext("2d", { willReadFrequently: true });
const marked = new Set();
const post = self.postMessage.bind(self);
self.postMessage = (message, transfer) => {
  if (message && message.type === "scores" && marked.delete(message.id)) message = { ...message, scores: EXPLICIT };
  return post(message, transfer);
};
const real = new URL(import.meta.url);
real.search = "real";
await import(real.href);
const handle = self.onmessage;
self.onmessage = (event) => {
  probe.drawImage(event.data.frame, 0, 0, 4, 4);
  const d = probe.getImageData(0, 0, 4, 4).data;
  let r = 0, g = 0, b = 0;
  for (let i = 0; i < d.length; i += 4) { r += d[i]; g += d[i + 1]; b += d[i + 2]; }
  const n = d.length / 4;
  if (r / n > 200 && g / n < 60 && b / n < 60) marked.add(event.data.id);
  return handle.call(self, event);
};
`;

async function standInWorker(context: BrowserContext): Promise<void> {
  await context.addInitScript(measureBlur);
  await context.route(/\/build\/nudity-worker-[^/?]+\.js(\?.*)?$/, (route) =>
    new URL(route.request().url()).search === "?real"
      ? route.continue()
      : route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: STAND_IN_WORKER }),
  );
}

const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "nina", "Nina", { gender: "female", age: 29, country_code: "NL", country_name: "Netherlands" });
    await registerAccount(server, "omar", "Omar", { gender: "male", age: 31, country_code: "ES", country_name: "Spain" });
  },
  open: { camera: true, initScript: recordLongTasks, ...WAIT },
});

async function openRoulette(username: string, prepare: (context: BrowserContext) => Promise<void>): Promise<Page> {
  const page = await suite.open(username, { prepare });
  // The classifier's own failures (worker load, backend) name themselves in the console.
  page.on("console", (m) => (m.type() === "error" || m.type() === "warning") && console.log(`[${username}] ${m.text()}`));
  page.on("pageerror", (e) => console.log(`[${username}] ${e.message}`));
  await openVideoTab(page, WAIT.timeout);
  return page;
}

const blur = (page: Page) => rouletteSection(page).getByRole("group", { name: "Blurred video" });

let pair: Promise<{ nina: Page; omar: Page }> | undefined;
/** Nina and Omar matched in Video Roulette: made by whichever test needs them first. */
function strangers(): Promise<{ nina: Page; omar: Page }> {
  pair ??= (async () => {
    const nina = await openRoulette("nina", standInWorker);
    const omar = await openRoulette("omar", async (context) => {
      await context.addInitScript(redOnDemandCamera);
      // Omar's own check never answers, so the stranger stays blurred on his side until he chooses
      // "Show anyway": with the real model a safe camera is cleared within seconds, before the first
      // two tests could look at the blur and click. His page is the camera and the partner of the
      // other tests, never the measured one.
      await context.route(/\/build\/nudity-worker-[^/?]+\.js(\?.*)?$/, (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: "self.onmessage = () => {};" }),
      );
    });
    await rouletteSection(nina).getByRole("button", { name: "Start Video Chat" }).click();
    await rouletteSection(omar).getByRole("button", { name: "Start Video Chat" }).click();
    await Promise.all([waitForRouletteStatus(nina, "connected", WAIT.timeout), waitForRouletteStatus(omar, "connected", WAIT.timeout)]);
    return { nina, omar };
  })();
  return pair;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

describe("nudity blur in Video Roulette", () => {
  // Seen from Omar's side, whose check never answers: on Nina's, the real model may clear the safe
  // camera between two of these looks (it did, under load, 1.5 s after the pairing).
  test("the stranger starts blurred with Show anyway, Next and Report", async () => {
    const { omar } = await strangers();
    await blur(omar).waitFor(WAIT);
    expect(await blur(omar).locator(".roulette-blur-label").textContent()).toStartWith("Checking the video…");
    for (const name of ["Show anyway", "Next", "Report"]) expect(await blur(omar).getByRole("button", { name, exact: true }).isVisible()).toBe(true);
    // They look like buttons: the chat's button reset must not strip their padding and pill shape.
    for (const name of ["Show anyway", "Next", "Report"]) {
      const look = await blur(omar).getByRole("button", { name, exact: true }).evaluate((button) => {
        const style = getComputedStyle(button);
        return { padding: style.paddingLeft, radius: style.borderTopLeftRadius, fits: button.scrollWidth <= button.clientWidth };
      });
      expect({ name, ...look }).toEqual({ name, padding: "18px", radius: "999px", fits: true });
    }
    expect(await rouletteSection(omar).locator("video.roulette-remote").getAttribute("class")).toContain("is-blurred");
    await omar.waitForFunction(() => (document.querySelector<HTMLVideoElement>("video.roulette-remote")?.videoWidth ?? 0) > 0, null, WAIT);
    console.log(`screenshot: ${await screenshot(omar, "nudity-blurred-stranger")}`);
  }, 180_000);

  test("'Show anyway' lifts the blur at once", async () => {
    const { omar } = await strangers();
    await blur(omar).getByRole("button", { name: "Show anyway" }).click(WAIT);
    await blur(omar).waitFor({ state: "detached", ...WAIT });
    expect(await rouletteSection(omar).locator("video.roulette-remote").getAttribute("class")).not.toContain("is-blurred");
  });

  test("the real classifier runs on wasm with SIMD and unblurs the safe test pattern", async () => {
    const { nina } = await strangers();
    await blur(nina).waitFor({ state: "detached", ...MODEL_WAIT });
    const { backend, wasmFetched } = await nina.evaluate(() => ({
      backend: (window as unknown as { nudityBackend?: string }).nudityBackend,
      // The worker's own fetches are not in the page's resource timing: the page fetches no .wasm.
      wasmFetched: performance.getEntriesByType("resource").some((e) => e.name.endsWith(".wasm")),
    }));
    expect(backend).toBe("wasm-simd");
    expect(wasmFetched).toBe(false);
  }, 300_000);

  // The page only takes a VideoFrame (a reference to the decoded picture) and hands it over; the
  // worker scales it. With createImageBitmap's resize on the page a slice took 59-269 ms here,
  // with a VideoFrame well under 50 ms (the figure printed above; not a condition, as a loaded
  // machine stretches it).
  test("the page hands every frame to the worker unscaled, as a transferred VideoFrame", async () => {
    const { nina } = await strangers();
    await nina.waitForFunction((n) => (window as unknown as { posted: unknown[] }).posted.length >= n, FIRST_FRAMES, MODEL_WAIT);
    const posted = await nina.evaluate(() => (window as unknown as { posted: { frame: string; transferred: boolean }[] }).posted);
    expect(posted.length).toBeGreaterThanOrEqual(FIRST_FRAMES);
    expect(posted.filter((p) => p.frame !== "VideoFrame" || !p.transferred)).toEqual([]);
  }, 300_000);

  test("an explicit frame on screen blurs the stranger at once (stand-in verdict, real model cost), and the time is printed", async () => {
    const { nina, omar } = await strangers();
    await blur(nina).waitFor({ state: "detached", ...MODEL_WAIT });
    const latencies: number[] = [];
    for (let trial = 0; trial < EXPLICIT_TRIALS; trial++) {
      const before = await nina.evaluate(() => {
        const w = window as unknown as { blurLog: { blurs: number[]; red: number[] }; watchRed: boolean };
        w.watchRed = true;
        return { blurs: w.blurLog.blurs.length, red: w.blurLog.red.length };
      });
      await omar.evaluate(() => Object.assign(window, { explicitOn: true }));
      await nina.waitForFunction(
        (b) => {
          const log = (window as unknown as { blurLog: { blurs: number[]; red: number[] } }).blurLog;
          return log.blurs.length > b.blurs && log.red.length > b.red;
        },
        before,
        MODEL_WAIT,
      );
      expect(await blur(nina).locator(".roulette-blur-label").textContent()).toBe("This video may show nudity");
      latencies.push(
        await nina.evaluate(() => {
          const log = (window as unknown as { blurLog: { blurs: number[]; red: number[] } }).blurLog;
          return log.blurs.at(-1)! - log.red.at(-1)!;
        }),
      );
      await omar.evaluate(() => Object.assign(window, { explicitOn: false }));
      // Safe frames again: the flag lifts after the required safe frames, ready for the next trial.
      await blur(nina).waitFor({ state: "detached", ...MODEL_WAIT });
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[${load()}] explicit frame on screen to blur over ${latencies.length} trials: p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms ` +
        `(${latencies.map((ms) => ms.toFixed(0)).join(", ")})`,
    );
    // A figure, not a condition (the goal is 500 ms at p95 on a quiet machine; at a load average of
    // 33 on 2 cores this test saw 6.6 s at p50): what is checked is that every red frame blurred.
    expect(latencies).toHaveLength(EXPLICIT_TRIALS);
  }, 900_000);

  test("a new partner's video is unblurred soon after its first frame, and the time is printed", async () => {
    const { nina, omar } = await strangers();
    await blur(nina).waitFor({ state: "detached", ...MODEL_WAIT });
    for (let i = 0; i < PAIRINGS; i++) {
      const unblurs = await nina.evaluate(() => (window as unknown as { blurLog: { unblurs: unknown[] } }).blurLog.unblurs.length);
      await rouletteSection(nina).getByRole("button", { name: "Next Partner" }).click();
      await Promise.all([waitForRouletteStatus(nina, "connected", WAIT.timeout), waitForRouletteStatus(omar, "connected", WAIT.timeout)]);
      await nina.waitForFunction((n) => (window as unknown as { blurLog: { unblurs: unknown[] } }).blurLog.unblurs.length > n, unblurs, MODEL_WAIT);
    }
    const log = await nina.evaluate(() => (window as unknown as { blurLog: { frames: { src: number; t: number }[]; unblurs: { src: number; t: number }[] } }).blurLog);
    // Each partner's stream: its first frame on screen to the blur lifting (the first one includes loading the model).
    const partners = new Set<number>();
    const waits = log.unblurs.flatMap(({ src, t }) => {
      // Only a partner's first unblur: later ones follow an explicit frame (the test above).
      if (partners.has(src)) return [];
      partners.add(src);
      const first = log.frames.find((f) => f.src === src);
      return first ? [t - first.t] : [];
    });
    const [withLoad, ...loaded] = waits;
    const sorted = [...loaded].sort((a, b) => a - b);
    console.log(
      `[${load()}] first frame to unblur over ${loaded.length} new partners (model loaded): p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms ` +
        `(${loaded.map((ms) => ms.toFixed(0)).join(", ")}); the first partner, while the model loaded: ${withLoad?.toFixed(0)} ms`,
    );
    expect(loaded.length).toBeGreaterThanOrEqual(PAIRINGS);
  }, 900_000);

  test("over the whole run: the model's time per frame and the classifier's main-thread slices, printed", async () => {
    const { nina } = await strangers();
    await nina.waitForFunction((n) => performance.getEntriesByName("nudity-classify").length >= n, FRAMES_MEASURED, { timeout: 600_000 });
    const { frames, longTasks, slices, verdicts } = await nina.evaluate(() => {
      const entries = performance.getEntriesByName("nudity-classify") as PerformanceMeasure[];
      const first = entries[0]!.startTime;
      const tasks = (window as unknown as { longTasks: { start: number; ms: number }[] }).longTasks.filter((t) => t.start >= first);
      return {
        frames: entries.map((e) => e.duration),
        longTasks: tasks.map((t) => t.ms),
        slices: performance.getEntriesByName("nudity-main-thread").map((e) => e.duration),
        verdicts: entries.map((e) => e.detail as Record<string, number>),
      };
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const slicesSorted = [...slices].sort((a, b) => a - b);
    console.log(
      `[${load()}] model time per frame over ${frames.length} frames: p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms; ` +
        `longest main-thread block while sampling: ${Math.max(0, ...longTasks).toFixed(0)} ms (${longTasks.length} long tasks, any cause)`,
    );
    console.log(
      `[${load()}] classifier's own main-thread slices over ${slices.length}: p50 ${percentile(slicesSorted, 50).toFixed(1)} ms, p95 ${percentile(slicesSorted, 95).toFixed(1)} ms, longest ${slicesSorted.at(-1)!.toFixed(1)} ms`,
    );
    expect(frames.length).toBeGreaterThanOrEqual(FRAMES_MEASURED);
    // The feature's bound (5 ms) on the median slice, the classifier's own cost (0.1 ms here); p95
    // and the longest are printed, not checked: at a load average of 33 on 2 cores the scheduler
    // stretched a few slices to 23-194 ms of wall time (4.5 ms at most at a load of 13).
    expect(percentile(slicesSorted, 50)).toBeLessThanOrEqual(5);
    // The stand-in's red frames were explicit (one or more per trial, as frames were in flight).
    expect(verdicts.filter((scores) => scores.Porn! + scores.Hentai! >= 0.5).length).toBeGreaterThanOrEqual(EXPLICIT_TRIALS);
  }, 700_000);
});
