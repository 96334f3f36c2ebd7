// Reads a console or appeal form post: urlencoded only, at most 32 KB, counted while reading so
// a client that lies about Content-Length cannot make the server hold more.
export const MAX_FORM_BYTES = 32 * 1024;

export type FormProblem = "too_large" | "unsupported_type";

export class FormError extends Error {
  constructor(
    readonly problem: FormProblem,
    readonly status: number,
  ) {
    super(problem === "too_large" ? "The form is too large." : "Send the form as a web page would (application/x-www-form-urlencoded).");
  }
}

export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new FormError("unsupported_type", 415);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) throw new FormError("too_large", 413);
  if (!request.body) return new URLSearchParams();
  const decoder = new TextDecoder();
  const reader = request.body.getReader();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_FORM_BYTES) {
      await reader.cancel();
      throw new FormError("too_large", 413);
    }
    text += decoder.decode(value, { stream: true });
  }
  // URLSearchParams never throws: a malformed escape stays as typed.
  return new URLSearchParams(text + decoder.decode());
}

/** A field as text, trimmed; absent or empty is "". */
export const field = (form: URLSearchParams, name: string): string => (form.get(name) ?? "").trim();

/** Positive whole ids from a repeated field (checkboxes), at most `max` of them, duplicates once. */
export function idsOf(form: URLSearchParams, name: string, max = 200): number[] {
  const ids = new Set<number>();
  for (const raw of form.getAll(name).slice(0, max)) {
    const id = positiveId(raw);
    if (id !== null) ids.add(id);
  }
  return [...ids];
}

/** A path or query id: a whole number from 1 to 2^53, or null. */
export function positiveId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 ? id : null;
}
