// The sign-in routes (/api/auth/*, /api/guest/create) take JSON from the site's own pages only
// (API.md "General"). A browser cannot send JSON cross-site without asking first, and the Origin
// check covers what it can send, so no other site can sign a visitor in or out.
import type { Config } from "../config.ts";
import { AppError, forbidden, validationError } from "../http/errors.ts";
import { originAllowed } from "../http/request.ts";

/** Far more than any sign-in form; the body is read no further. */
export const MAX_AUTH_BODY_BYTES = 64 * 1024;

const tooLarge = () => new AppError(413, "too_large", "The request is too large");

export function refuseForeignOrigin(request: Request, config: Config): void {
  if (!originAllowed(request, config)) throw forbidden("This request came from another site. Please sign in on this site's own page.");
}

const isJson = (type: string) => /^application\/json\s*(;|$)/i.test(type.trim());

/**
 * The parsed JSON body: 415 for any other type, 413 past 64 KB (checked before and while
 * reading), 400 for malformed JSON. `optional`: a request without a body (logout) reads as {}.
 */
export async function readJsonBody(request: Request, optional = false): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (type === null && optional && request.body === null) return {};
  if (type === null || !isJson(type)) {
    throw new AppError(415, "unsupported_type", "Send this as JSON (Content-Type: application/json); forms and other types are not accepted here.");
  }
  if (Number(request.headers.get("content-length") ?? 0) > MAX_AUTH_BODY_BYTES) throw tooLarge();
  const text = await readCapped(request);
  if (text.trim() === "" && optional) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw validationError({}, "The request body is not valid JSON");
  }
}

async function readCapped(request: Request): Promise<string> {
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body) {
    total += chunk.byteLength;
    if (total > MAX_AUTH_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw validationError({}, "The request body is not valid UTF-8");
  }
}
