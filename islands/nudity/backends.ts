// Which TensorFlow.js backend the classifier runs on (issue 21), fastest first where it works:
//   1. wasm: XNNPACK kernels in WebAssembly, the SIMD build where the browser validates SIMD
//      (every browser that has module workers with OffscreenCanvas but Chrome 80-90). Never the
//      threaded build: that needs a cross-origin isolated page (docs/DECISIONS.md, issue 21).
//   2. webgl, only on a real GPU: on a software renderer (SwiftShader, llvmpipe) it was 8 times
//      slower than wasm here (STACK-NOTES), and a page without a GPU is exactly where speed counts.
//   3. cpu: plain JavaScript, the slowest, always there.
// The .wasm files are served from our own build (hashed names, cached for a year); the worker is
// given their URLs, so nothing is ever fetched from a CDN.

export type BackendName = "wasm" | "webgl" | "cpu";
/** What a report still's record keeps: the backend, with the wasm build that ran. */
export type BackendLabel = "wasm-simd" | "wasm" | "webgl" | "cpu";
export const BACKEND_LABELS: readonly BackendLabel[] = ["wasm-simd", "wasm", "webgl", "cpu"];

export type GpuKind = "hardware" | "software" | "none";

/** The .wasm files' URLs, by the names tfjs-backend-wasm asks for (set by scripts/build-client.ts). */
export type WasmPaths = Record<"tfjs-backend-wasm.wasm" | "tfjs-backend-wasm-simd.wasm" | "tfjs-backend-wasm-threaded-simd.wasm", string>;

export function backendOrder(where: { wasm: boolean; gpu: GpuKind }): BackendName[] {
  return [...(where.wasm ? (["wasm"] as const) : []), ...(where.gpu === "hardware" ? (["webgl"] as const) : []), "cpu"];
}

/** Renderers that draw with the CPU: WebGL there is slower than wasm and steals the same cores. */
export const isSoftwareRenderer = (renderer: string): boolean =>
  /swiftshader|llvmpipe|softpipe|software|basic render driver|mesa offscreen/i.test(renderer);

/**
 * Whether this worker has a real GPU behind WebGL. `failIfMajorPerformanceCaveat` makes browsers
 * refuse a context they would render in software; the renderer's name is checked as well, since
 * not every browser honours the flag in a worker.
 */
export function probeGpu(): GpuKind {
  if (typeof OffscreenCanvas !== "function") return "none";
  try {
    const canvas = new OffscreenCanvas(1, 1);
    const gl = (canvas.getContext("webgl2", { failIfMajorPerformanceCaveat: true }) ??
      canvas.getContext("webgl", { failIfMajorPerformanceCaveat: true })) as WebGLRenderingContext | null;
    if (!gl) {
      // A context without the flag but not with it: a software one.
      const soft = canvas.getContext("webgl");
      soft?.getExtension("WEBGL_lose_context")?.loseContext();
      return soft ? "software" : "none";
    }
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? "");
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return isSoftwareRenderer(renderer) ? "software" : "hardware";
  } catch {
    return "none";
  }
}

export const hasWebAssembly = (): boolean => typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function";
