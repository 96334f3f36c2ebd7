// Every HTTP request carries an id, returned as `x-request-id` and written on its log lines, so a
// user's report ("it failed at 14:02, id 3f9c...") leads to the line. A proxy's or client's id is
// kept only when it cannot smuggle anything into a log or a header.
export const REQUEST_ID_HEADER = "x-request-id";

const ACCEPTED = /^[A-Za-z0-9-]{8,64}$/;

const words = new Uint32Array(2);
const hex8 = (word: number) => word.toString(16).padStart(8, "0");

/** 64 random bits as hex: unique enough to find one request in a day of logs (and ten times cheaper than randomBytes here). */
export function newRequestId(): string {
  crypto.getRandomValues(words);
  return hex8(words[0]!) + hex8(words[1]!);
}

export function requestIdFor(given: string | null): string {
  return given !== null && ACCEPTED.test(given) ? given : newRequestId();
}
