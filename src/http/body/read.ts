// Reads a request body into memory with a cap: the declared Content-Length is checked before the
// body is read, then the bytes are counted as they arrive (a client may lie, or send chunks with
// no length at all) and reading stops at the first chunk past the cap.
import { AppError, validationError } from "../errors.ts";

export const tooLarge = (max: number) =>
  new AppError(413, "too_large", `The request is too large (at most ${max >= 1024 ? `${Math.floor(max / 1024)} KB` : `${max} bytes`} here)`);

export interface ReadOptions {
  /** The answer past the cap; the default names the cap. */
  tooBig?: () => AppError;
  /**
   * Sees each chunk as it arrives and may throw to refuse the body. A body declared past the cap
   * still shows it the chunk that came with it (one read, at most the cap, waited for at most
   * PEEK_MS) before the 413, so a body that is both too deep and too large gets the 400 that
   * says what is wrong with it.
   */
  inspect?: (chunk: Uint8Array) => void;
}

/** How long a body declared too large may take to show its first bytes to `inspect`. */
export const PEEK_MS = 250;

/** The declared length, or null when there is none (chunked) or it is not a number. */
export function declaredLength(request: Request): number | null {
  const raw = request.headers.get("content-length");
  if (raw === null) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/** 413 when the declared length is past `max`: nothing is read. */
export function refuseDeclaredOver(request: Request, max: number, tooBig = () => tooLarge(max)): void {
  const declared = declaredLength(request);
  if (declared !== null && declared > max) throw tooBig();
}

export async function readCappedBytes(request: Request, max: number, options: ReadOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const tooBig = options.tooBig ?? (() => tooLarge(max));
  const declared = declaredLength(request);
  const declaredOver = declared !== null && declared > max;
  if (declaredOver && !options.inspect) throw tooBig();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    if (declaredOver) {
      const first = await Promise.race([reader.read(), Bun.sleep(PEEK_MS).then(() => null)]);
      if (first?.value) options.inspect?.(first.value.subarray(0, max));
      throw tooBig();
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      options.inspect?.(total > max ? value.subarray(0, value.byteLength - (total - max)) : value);
      if (total > max) throw tooBig();
      chunks.push(value);
    }
  } catch (error) {
    // Bun then takes no more of the body: the answer goes out and the rest is never held.
    await reader.cancel().catch(() => {});
    throw error;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

export function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError({}, "The request body is not valid UTF-8");
  }
}

export const readCappedText = async (request: Request, max: number, options?: ReadOptions): Promise<string> => utf8(await readCappedBytes(request, max, options));
